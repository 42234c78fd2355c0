"""Escalator variable-speed energy saver.

Photo-eye counters at the bottom and top landings report passengers per 10 s
interval. The drive runs at nominal speed, drops to creep speed when nobody
has been seen for a while, goes to the rush-hour speed when a crowd builds
(unless the motor is hot) and is always derated when the motor overheats.
"""
import torch
import torch.nn as nn


class LandingEncoder(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.proj = nn.Linear(1, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, counts):
        return self.out(torch.tanh(self.proj(counts.unsqueeze(-1) / 5.0))).squeeze(-1)


class EscalatorEnergySaver(nn.Module):
    def __init__(self, nominal=0.5, idle_window=12, crowd_level=8.0, motor_limit_c=75.0):
        super().__init__()
        self.nominal = nominal            # m/s
        self.idle_window = idle_window    # 12 x 10 s = 2 minutes
        self.crowd_level = crowd_level
        self.motor_limit_c = motor_limit_c
        self.landings = nn.ModuleList([LandingEncoder(), LandingEncoder()])

    def forward(self, counts, motor_temp):
        # counts: [intervals, 2] (bottom, top), motor_temp: [1] degC
        demand = torch.stack([enc(counts[:, i]) for i, enc in enumerate(self.landings)], dim=1).sum(1)
        recent = counts[-self.idle_window:]
        hot = motor_temp[0] > self.motor_limit_c

        mode = torch.tensor(1)                 # 1 = nominal
        speed = torch.tensor(self.nominal)
        if recent.sum() < 0.5:
            speed = speed * 0.2                # creep, wakes on the next photo-eye hit
            mode = torch.tensor(0)
        elif recent.max() > self.crowd_level and not hot:
            speed = torch.tensor(0.75)         # rush-hour speed
            mode = torch.tensor(2)
        if hot:
            speed = torch.clamp(speed, max=0.4)
        kwh = speed * 7.5 * counts.shape[0] * 10.0 / 3600.0
        return speed, mode, kwh, torch.sigmoid(demand)


def model():
    torch.manual_seed(5509)
    return EscalatorEnergySaver().eval()


def _traffic(intervals, rate, quiet_tail, temp, seed):
    g = torch.Generator().manual_seed(seed)
    counts = torch.poisson(torch.full((intervals, 2), rate), generator=g)
    if quiet_tail:
        counts[-quiet_tail:] = 0.0
    return counts, torch.tensor([temp])


def example_inputs():
    return _traffic(60, 2.0, 0, 50.0, 1)


def dynamic_shapes():
    intervals = torch.export.Dim("intervals", min=2, max=360)
    return ({0: intervals}, None)


def verify_inputs():
    return [
        example_inputs(),                       # moderate traffic, cool motor -> nominal
        _traffic(2, 0.0, 0, 40.0, 2),           # intervals=min, nobody -> creep speed
        _traffic(360, 12.0, 0, 45.0, 3),        # intervals=max, crowd -> rush-hour speed
        _traffic(90, 12.0, 0, 82.0, 4),         # crowd but hot motor -> nominal, then derated
        _traffic(120, 3.0, 20, 80.0, 5),        # quiet tail and hot motor -> creep, derate clamp
    ]
