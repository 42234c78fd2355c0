"""Sea-turtle nest monitoring: predicts hatchling sex ratio from a nest temperature logger.

Loggers record hourly sand temperature.  The series is cut into whole days; embryonic
development advances each day at a temperature-dependent rate.  The thermosensitive period
(TSP) is the middle third of development: the mean temperature over the TSP days decides the
sex ratio through a logistic curve around the pivotal temperature (~29.2 C, warmer -> female).
Loggers retrieved early (fewer than 10 days) are reported with a neutral 0.5 estimate.  If the
TSP was never reached, the estimate falls back to the mean temperature so far.
"""
import torch
import torch.nn as nn
from torch.export import Dim

HOURS_PER_DAY = 24


def development_rate(day_temp):
    """Fraction of development per day (linear degree-day model, no growth below 24 C)."""
    excess = day_temp - 24.0
    if excess <= 0:
        return torch.zeros(())
    return 0.0032 * excess


class NestSexRatio(nn.Module):
    def __init__(self, pivotal=29.2, transition=0.8, min_days=10):
        super().__init__()
        self.pivotal = pivotal
        self.transition = transition
        self.min_days = min_days

    def forward(self, temps):
        n_days = temps.shape[0] // HOURS_PER_DAY
        if n_days < self.min_days:
            return torch.full((), 0.5), torch.zeros(()), temps.mean()
        daily = temps[: n_days * HOURS_PER_DAY].view(n_days, HOURS_PER_DAY).mean(1)

        dev = torch.zeros(())
        tsp_temps = []
        for d in range(n_days):
            dev = dev + development_rate(daily[d])
            if dev >= 1.0:
                break  # hatched: later logger days are after emergence
            if dev > 1.0 / 3.0 and dev < 2.0 / 3.0:
                tsp_temps.append(daily[d])
        if len(tsp_temps) > 0:
            tsp_mean = torch.stack(tsp_temps).mean()
        else:
            tsp_mean = daily.mean()
        female_fraction = torch.sigmoid((tsp_mean - self.pivotal) / self.transition * 4.0)
        return female_fraction, dev.clamp(max=1.0), tsp_mean


def model():
    return NestSexRatio().eval()


def _logger(days, base, trend, cold_days=0, seed=0):
    g = torch.Generator().manual_seed(seed)
    hours = torch.arange(days * HOURS_PER_DAY + 5).float()
    t = base + trend * hours / (HOURS_PER_DAY * 60.0) + 1.2 * torch.sin(2 * torch.pi * hours / HOURS_PER_DAY)
    t = t + 0.1 * torch.randn(t.shape, generator=g)
    if cold_days:
        t[: cold_days * HOURS_PER_DAY] -= 7.0   # storm / cold snap: below development threshold
    return t


def example_inputs():
    return (_logger(70, 29.0, 1.5),)


def dynamic_shapes():
    return ({0: Dim("hours", min=24, max=4000)},)


def verify_inputs():
    return [
        example_inputs(),                       # full incubation: TSP days collected, hatch -> break
        (_logger(7, 29.0, 0.0),),               # logger retrieved after 7 days -> early neutral estimate
        (_logger(22, 28.0, 0.0, seed=1),),      # 22 days: never reaches TSP -> fallback to mean
        (_logger(80, 30.5, 0.0, cold_days=3, seed=2),),  # cold snap first (no development), warm nest, hatches
        (_logger(45, 27.5, 0.0, seed=3),),      # in TSP when the logger ends (loop runs to the end)
    ]
