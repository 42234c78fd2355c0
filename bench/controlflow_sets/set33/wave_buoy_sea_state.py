"""Zero-upcrossing wave statistics for a moored wave buoy.

elevation: heave record in metres sampled at 2 Hz (dynamic length).
Splits the record into individual waves at zero up-crossings, then computes
significant wave height H1/3, Hmax, mean zero-crossing period Tz, the Douglas
sea state and a learned wind-sea / swell probability.
Returns [H1/3, Hmax, Tz, sea_state, p_swell].
"""
import torch
import torch.nn as nn
from torch.export import Dim


class SeaState(nn.Module):
    def __init__(self, fs=2.0, min_waves=3):
        super().__init__()
        self.fs = fs
        self.min_waves = min_waves
        self.swell_head = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, elevation):
        if elevation.shape[0] < 4 * self.fs:
            return torch.zeros(5)  # shorter than one plausible wave period
        eta = elevation - elevation.mean()

        heights, periods = [], []
        last_up = -1
        crest = eta[0]
        trough = eta[0]
        for i in range(1, eta.shape[0]):
            if eta[i - 1] < 0 and eta[i] >= 0:
                if last_up >= 0:
                    heights.append(crest - trough)
                    periods.append(torch.tensor((i - last_up) / self.fs))
                last_up = i
                crest = eta[i]
                trough = eta[i]
                continue
            crest = torch.maximum(crest, eta[i])
            trough = torch.minimum(trough, eta[i])

        if len(heights) < self.min_waves:
            return torch.zeros(5)  # flat calm or a broken record

        h = torch.sort(torch.stack(heights), descending=True).values
        third = max(1, h.shape[0] // 3)
        h13 = h[:third].mean()
        hmax = h[0]
        tz = torch.stack(periods).mean()

        if h13 < 0.1:
            state = 1.0
        elif h13 < 0.5:
            state = 2.0
        elif h13 < 1.25:
            state = 3.0
        elif h13 < 2.5:
            state = 4.0
        else:
            state = 5.0
        p_swell = torch.sigmoid(self.swell_head(torch.stack([h13, tz / 10.0, hmax / h13])).squeeze(-1))
        return torch.stack([h13, hmax, tz, torch.tensor(state), p_swell])


def model():
    torch.manual_seed(12)
    return SeaState().eval()


def _record(n, hs, period, seed, fs=2.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / fs
    eta = torch.zeros(n)
    for k in range(6):
        f = 1.0 / period * (0.8 + 0.08 * k)
        a = hs / 4.0 * (0.6 + 0.8 * torch.rand((), generator=g))
        eta = eta + a * torch.sin(2 * torch.pi * f * t + 6.28 * torch.rand((), generator=g))
    return eta + 0.02 * hs * torch.randn(n, generator=g) + 0.3


def example_inputs():
    return (_record(240, 1.0, 8.0, 1),)


def dynamic_shapes():
    return ({0: Dim("samples", min=2, max=4096)},)


def verify_inputs():
    return [
        example_inputs(),                  # 2 min of moderate sea: state 4
        (_record(6, 1.0, 8.0, 2),),        # 3 s record: too short, early return
        (_record(30, 1.0, 12.0, 3),),      # 15 s long-period swell: < 3 complete waves, second early return
        (_record(200, 0.04, 4.0, 4),),     # ripples: state 1
        (_record(200, 0.2, 5.0, 5),),      # smooth sea: state 2
        (_record(300, 0.45, 6.0, 6),),      # slight sea: state 3
        (_record(400, 2.5, 11.0, 7),),     # rough sea: state 5
    ]
