"""Irrigation scheduler for a soil-moisture controller (field edge board).

Inputs: current volumetric moisture (1,) and a daily weather forecast (D, 4) = [temp C,
humidity %, wind m/s, rain mm], D dynamic. An MLP predicts evapotranspiration; a day-by-day
water balance decides when to irrigate, splitting large doses into pulses. Returns the daily
schedule, the moisture trace, and the indices of irrigation days (data-dependent length).
"""

import torch
from torch import nn


class IrrigationPlanner(nn.Module):
    def __init__(self, lower: float = 0.22, target: float = 0.32, max_pulse: float = 0.04):
        super().__init__()
        self.lower = lower
        self.target = target
        self.max_pulse = max_pulse
        self.max_pulses = 4
        self.et_net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))
        self.register_buffer("scale", torch.tensor([30.0, 100.0, 10.0, 20.0]))

    def forward(self, moisture: torch.Tensor, forecast: torch.Tensor):
        x = forecast / self.scale
        # ET in moisture units per day: physical prior (heat, dry air, wind) + learned residual
        et = 0.01 + 0.03 * x[:, 0] + 0.01 * (1 - x[:, 1]) + 0.005 * x[:, 2]
        et = (et + 0.002 * torch.tanh(self.et_net(x).squeeze(-1))).clamp_min(0.0)
        rain = forecast[:, 3] * 0.004
        m = moisture.view(())
        schedule, trace = [], []
        for d in range(forecast.shape[0]):
            m = (m - et[d] + rain[d]).clamp(0.0, 0.45)
            dose = torch.zeros(())
            if m < self.lower:
                need = self.target - m
                pulses = 0
                while need > self.max_pulse and pulses < self.max_pulses:
                    dose = dose + self.max_pulse
                    need = need - self.max_pulse
                    pulses += 1
                dose = dose + need.clamp_max(self.max_pulse)
                m = m + dose
            schedule.append(dose)
            trace.append(m)
        schedule = torch.stack(schedule)
        days = torch.nonzero(schedule > 0).squeeze(1)
        return schedule, torch.stack(trace), days


def model() -> nn.Module:
    torch.manual_seed(0)
    return IrrigationPlanner().eval()


def _forecast(d, temp, rain_days, seed):
    g = torch.Generator().manual_seed(seed)
    f = torch.stack([
        temp + 2.0 * torch.randn(d, generator=g),
        50.0 + 10.0 * torch.randn(d, generator=g),
        3.0 + torch.rand(d, generator=g),
        torch.zeros(d),
    ], dim=1)
    for r in rain_days:
        f[r, 3] = 25.0
    return f


def example_inputs() -> tuple:
    return (torch.tensor([0.30]), _forecast(7, 28.0, [], 1))


def dynamic_shapes():
    return (None, {0: torch.export.Dim("days", min=2, max=30)})


def verify_inputs() -> list:
    return [
        (torch.tensor([0.35]), _forecast(5, 12.0, [1, 3], 2)),   # cool and rainy: no irrigation
        (torch.tensor([0.05]), _forecast(10, 35.0, [], 3)),      # bone dry: multi-pulse dose
        (torch.tensor([0.20]), _forecast(3, 25.0, [], 4)),
    ]
