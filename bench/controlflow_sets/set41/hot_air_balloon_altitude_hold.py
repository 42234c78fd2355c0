"""Altitude-hold assistant for a hot-air balloon pilot.

Input is the recent flight log (altitude m, variometer m/s, envelope
temperature degC, one row per second) and the target altitude. A small policy
network proposes burner / parachute-vent durations; pilot rules override it:
no burning at envelope over-temperature, long burn when far below and not
climbing, vent when too high or climbing too fast.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class BalloonAltitudeHold(nn.Module):
    def __init__(self, max_temp=120.0, band=50.0, max_climb=4.0):
        super().__init__()
        self.max_temp = max_temp
        self.band = band
        self.max_climb = max_climb
        self.policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))

    def forward(self, log, target):
        alt, vario, temp = log[:, 0], log[:, 1], log[:, 2]
        if temp[-1] > self.max_temp:
            # envelope too hot: no burner, no vent, let it cool
            return torch.zeros(2, dtype=log.dtype), torch.tensor(3)

        # climb rate: least-squares slope over the last 8 s when we have them
        if log.shape[0] >= 8:
            a = alt[-8:]
            t = torch.arange(8, dtype=log.dtype)
            tc = t - t.mean()
            climb = (tc * (a - a.mean())).sum() / (tc * tc).sum()
        else:
            climb = vario[-1]

        err = target[0] - alt[-1]
        feats = torch.stack([err / 100.0, climb / 5.0, (temp[-1] - 90.0) / 30.0, alt[-1] / 1000.0])
        raw = self.policy(feats)
        burn = 10.0 * torch.sigmoid(raw[0])
        vent = 5.0 * torch.sigmoid(raw[1])

        if err > self.band and climb < 1.0:
            burn = burn + 10.0
            vent = torch.zeros_like(vent)
            mode = torch.tensor(1)
        elif err < -self.band or climb > self.max_climb:
            burn = torch.zeros_like(burn)
            mode = torch.tensor(2)
        else:
            vent = vent * 0.2
            mode = torch.tensor(0)
        return torch.stack([burn, vent]), mode


def model():
    torch.manual_seed(11)
    return BalloonAltitudeHold().eval()


def _log(n, alt0, rate, temp):
    t = torch.arange(n, dtype=torch.float32)
    alt = alt0 + rate * t
    vario = torch.full((n,), rate)
    return torch.stack([alt, vario, torch.full((n,), temp)], dim=1)


def example_inputs():
    return (_log(10, 480.0, 0.5, 100.0), torch.tensor([500.0]))


def dynamic_shapes():
    t = Dim("seconds", min=2, max=128)
    return ({0: t}, None)


def verify_inputs():
    return [
        example_inputs(),                                    # near target, slow climb: policy trim (else)
        (_log(10, 480.0, 0.5, 125.0), torch.tensor([500.0])),  # envelope over-temperature -> early return
        (_log(12, 300.0, 0.2, 95.0), torch.tensor([500.0])),   # far below, not climbing -> long burn
        (_log(9, 300.0, 5.0, 95.0), torch.tensor([500.0])),    # far below but climbing fast: and fails, or via climb
        (_log(20, 700.0, 0.0, 90.0), torch.tensor([500.0])),   # far above target -> vent (or via err)
        (_log(3, 495.0, 0.3, 100.0), torch.tensor([500.0])),   # short log (<8 s): climb from variometer, trim
        (_log(5, 200.0, -0.5, 85.0), torch.tensor([500.0])),   # short log, far below and sinking -> long burn
        (_log(128, 100.0, 3.0, 110.0), torch.tensor([600.0])), # max log length, below target but already climbing 3 m/s -> trim
    ]
