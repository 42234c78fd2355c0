"""Hillside landslide monitor: hourly rain gauge + borehole inclinometer.

Combines an antecedent-precipitation index (exponentially decayed rainfall) with
the current creep velocity of the slope.  Both high -> alarm with an inverse-
velocity time-to-failure estimate; either high -> watch; otherwise normal.
"""
import torch
import torch.nn as nn
from torch.export import Dim

NORMAL, WATCH, ALARM = 0, 1, 2


class SlopeMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.decay = 0.97            # per hour
        self.api_warn = 60.0         # mm
        self.v_watch = 0.15          # mm / h
        self.v_alarm = 0.4           # mm / h
        self.fit_window = 6          # hours used for the velocity regression
        self.register_buffer("t_fit", torch.arange(6, dtype=torch.float32))
        self.risk = nn.Sequential(nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 1))

    def creep_velocity(self, disp):
        n = disp.shape[0]
        if n < self.fit_window:
            return (disp[-1] - disp[0]) / (n - 1)
        y = disp[-self.fit_window:]
        t = self.t_fit - self.t_fit.mean()
        return (t * (y - y.mean())).sum() / (t * t).sum()

    def creep_acceleration(self, disp):
        half = disp.shape[0] // 2
        v_old = self.creep_velocity(disp[: half + 1])
        v_new = self.creep_velocity(disp[half:])
        return (v_new - v_old) / half

    def forward(self, rain, disp):
        ages = torch.arange(rain.shape[0] - 1, -1, -1, dtype=rain.dtype)
        api = (rain * self.decay ** ages).sum()
        v = self.creep_velocity(disp)

        ttf_h = torch.full((), 9999.0)
        if api > self.api_warn and v > self.v_alarm:
            level = torch.tensor(ALARM)
            acc = self.creep_acceleration(disp)
            if acc > 0:
                # Fukuzono: 1/v falls linearly to zero at failure
                ttf_h = torch.clamp(v / acc, max=9999.0)
        elif api > self.api_warn or v > self.v_watch:
            level = torch.tensor(WATCH)
        else:
            level = torch.tensor(NORMAL)
        score = torch.sigmoid(self.risk(torch.stack([api / 100.0, v, rain[-1] / 10.0])))[0]
        return level, api, v, ttf_h, score


def model():
    torch.manual_seed(4)
    return SlopeMonitor().eval()


def _gen(n, rain_mm_h, v0, accel, seed):
    g = torch.Generator().manual_seed(seed)
    rain = (rain_mm_h * (1 + 0.3 * torch.rand(n, generator=g))).clamp(min=0)
    t = torch.arange(n, dtype=torch.float32)
    disp = v0 * t + 0.5 * accel * t * t + 0.002 * torch.randn(n, generator=g)
    return rain, disp


def example_inputs():
    return _gen(48, 0.5, 0.05, 0.0, 0)


def dynamic_shapes():
    t = Dim("hours", min=2, max=240)
    return {0: t}, {0: t}


def verify_inputs():
    return [
        example_inputs(),                 # dry, slow creep -> NORMAL
        _gen(72, 4.0, 0.05, 0.0, 1),      # wet but slow -> WATCH via API
        _gen(24, 0.2, 0.3, 0.0, 2),       # dry but moving -> WATCH via velocity
        _gen(96, 3.0, 0.1, 0.01, 3),      # wet and accelerating -> ALARM with time-to-failure
        _gen(40, 5.0, 1.2, -0.02, 4),     # wet and fast but decelerating -> ALARM, acc <= 0, no ttf
        _gen(4, 0.1, 0.02, 0.0, 5),       # fewer than 6 readings -> two-point velocity, NORMAL
        _gen(4, 30.0, 0.6, 0.0, 6),       # short record, downpour, fast -> ALARM, short-record velocity in both halves
    ]
