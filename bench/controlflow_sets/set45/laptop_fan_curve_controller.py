"""Laptop fan duty from a variable number of thermal sensors: per-sensor fan
curve, broken-sensor skipping, hysteresis against the previous duty and a
critical-temperature override, plus a small learned load-anticipation term.

Kind T. Constructs: 1, 2, 3, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def fan_curve(temp):
    """Piecewise-linear vendor curve (duty in [0, 1]) for one sensor reading."""
    if temp < 45.0:
        return torch.full_like(temp, 0.2)
    elif temp < 65.0:
        return 0.2 + (temp - 45.0) * 0.02
    elif temp < 80.0:
        return 0.6 + (temp - 65.0) * 0.02
    else:
        return torch.ones_like(temp)


class FanController(nn.Module):
    def __init__(self):
        super().__init__()
        self.anticipate = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.hysteresis = 0.05
        self.critical = 95.0

    def forward(self, temps, prev_duty):
        # temps: [S] degrees C from however many sensors this board exposes
        # prev_duty: [1] duty applied on the previous tick
        duties = []
        valid = []
        for i in range(temps.shape[0]):
            t = temps[i]
            if t < -20.0 or t > 125.0:
                continue  # disconnected thermistor reads garbage
            duties.append(fan_curve(t))
            valid.append(t)
        if len(duties) == 0:
            # no trustworthy sensor at all: fail safe
            return torch.ones(1), torch.ones(1)

        duty = torch.stack(duties).max().reshape(1)
        valid_t = torch.stack(valid)
        if duty < prev_duty and prev_duty - duty < self.hysteresis:
            duty = prev_duty  # avoid audible fan hunting
        critical = (valid_t > self.critical).any()
        if critical:
            duty = torch.ones(1)

        stats = torch.stack([valid_t.mean(), valid_t.max(), valid_t.min()]) / 100.0
        duty = (duty + 0.05 * torch.tanh(self.anticipate(stats))).clamp(0.0, 1.0)
        return duty, critical.float().reshape(1)


def model():
    torch.manual_seed(2)
    return FanController().eval()


def example_inputs():
    return (torch.tensor([41.0, 52.0, 70.5, 38.0]), torch.tensor([0.5]))


def dynamic_shapes():
    return ({0: Dim("sensors", min=2, max=16)}, None)


def verify_inputs():
    return [
        example_inputs(),  # mixed: <45, 45..65, 65..80 curves; duty 0.71 > prev: no hysteresis
        (torch.tensor([30.0, 33.0]), torch.tensor([0.22])),  # all <45 -> 0.2; 0.2<0.22 and gap .02<.05 -> hold prev
        (torch.tensor([30.0, 33.0]), torch.tensor([0.6])),  # 0.2<0.6 but gap .4 >= .05 -> `and` fails, drop duty
        (torch.tensor([85.0, 99.0, 60.0, -40.0, 50.0]), torch.tensor([0.9])),  # >=80 curve, -40 skipped (continue), 99 critical override
        (torch.tensor([200.0, -55.0, 130.0]), torch.tensor([0.3])),  # every sensor broken -> fail-safe early return
        (torch.tensor([55.0, 62.0, 48.0, 47.0, 58.0, 61.0, 44.0, 59.0, 63.0, 50.0, 46.0, 57.0, 52.0, 49.0, 56.0, 60.0]),
         torch.tensor([0.1])),  # 16 sensors, no skip, no critical
    ]
