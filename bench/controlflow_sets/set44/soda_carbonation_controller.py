"""Inline beverage carbonator: estimate dissolved CO2 and pulse the gas valve until on target.

Kind T. Constructs: 1, 4, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class GasValve(nn.Module):
    """Valve model: pulse size depends on line pressure."""

    def __init__(self, max_bar=4.0):
        super().__init__()
        self.max_bar = max_bar

    def forward(self, pressure):
        if pressure > self.max_bar:
            return torch.full_like(pressure, 0.05)  # throttled pulse
        return torch.full_like(pressure, 0.2)


class Carbonator(nn.Module):
    def __init__(self):
        super().__init__()
        self.valve = GasValve()
        self.sensor = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.dropout = nn.Dropout(0.1)
        self.max_pulses = 40

    def forward(self, log, target):
        # log: (T, 3) = line pressure bar, liquid temp C, flow L/min; target: (1,) volumes CO2
        p = log[-4:, 0].mean()
        temp = log[-4:, 1].mean()
        # Henry's-law style estimate of dissolved volumes
        vol = p * 1.2 * torch.exp(-0.03 * temp)
        pulses = torch.zeros(())
        while vol < target[0] and pulses < self.max_pulses:
            vol = vol + self.valve(p)
            pulses = pulses + 1
        h = self.sensor(log).mean(0)
        h = self.dropout(h) if self.training else h
        return torch.stack([vol, pulses]), h


def model():
    torch.manual_seed(109)
    return Carbonator().eval()


def _log(T, p, temp):
    k = torch.arange(T, dtype=torch.float32)
    return torch.stack([torch.full((T,), p) + 0.001 * torch.sin(k),
                        torch.full((T,), temp), torch.full((T,), 12.0)], dim=1)


def example_inputs():
    return _log(20, 2.0, 4.0), torch.tensor([2.8])


def dynamic_shapes():
    return ({0: Dim("samples", min=4, max=120)}, None)


def verify_inputs():
    return [
        example_inputs(),                          # normal pressure, a few 0.2 pulses
        (_log(4, 4.5, 20.0), torch.tensor([2.5])), # already carbonated -> loop runs zero times
        (_log(120, 4.5, 20.0), torch.tensor([3.19])),  # high line pressure -> throttled pulses, loop runs 5 times
        (_log(8, 0.2, 4.0), torch.tensor([12.0])), # tank nearly empty -> loop ends on max_pulses
    ]
