"""Single-object tracker: a learned measurement encoder feeding a constant-velocity Kalman filter (diagonal form).

Missed detections (NaN rows) skip the update step and outliers beyond the validation gate are rejected.
"""

import torch
from torch import nn


class MeasurementEncoder(nn.Module):
    """Refines raw detector boxes (cx, cy) with their confidence into a position measurement and noise."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 4))
        with torch.no_grad():
            self.mlp[2].weight.mul_(0.1)
            self.mlp[2].bias.zero_()

    def forward(self, det):
        out = self.mlp(det)
        pos = det[:2] + 0.1 * out[:2]
        noise = nn.functional.softplus(out[2:]) + 0.05
        return pos, noise


class KalmanTracker(nn.Module):
    def __init__(self, gate: float = 9.0, q: float = 0.01):
        super().__init__()
        self.encoder = MeasurementEncoder()
        self.gate = gate
        self.q = q

    def step_update(self, pos, vel, p_pos, meas, r):
        innov = meas - pos
        s = p_pos + r
        d2 = (innov**2 / s).sum()
        if d2 > self.gate:
            return pos, vel, p_pos, torch.tensor(1.0)
        k = p_pos / s
        return pos + k * innov, vel + 0.5 * k * innov, (1 - k) * p_pos, torch.tensor(0.0)

    def forward(self, dets):  # (T, 3) rows: cx, cy, conf (NaN row = missed detection)
        pos = torch.zeros(2)
        vel = torch.zeros(2)
        p_pos = torch.ones(2) * 10.0
        initialised = False
        states, rejected = [], []
        for t in range(dets.shape[0]):
            det = dets[t]
            if not initialised:
                if torch.isnan(det).any():
                    states.append(torch.cat([pos, vel]))
                    rejected.append(torch.tensor(0.0))
                    continue
                pos, _ = self.encoder(det)
                initialised = True
                states.append(torch.cat([pos, vel]))
                rejected.append(torch.tensor(0.0))
                continue
            pos = pos + vel
            p_pos = p_pos + self.q
            if torch.isnan(det).any():
                states.append(torch.cat([pos, vel]))
                rejected.append(torch.tensor(0.0))
                continue
            meas, r = self.encoder(det)
            pos, vel, p_pos, rej = self.step_update(pos, vel, p_pos, meas, r)
            states.append(torch.cat([pos, vel]))
            rejected.append(rej)
        return torch.stack(states), torch.stack(rejected)


def model():
    torch.manual_seed(0)
    return KalmanTracker().eval()


def _track(n, seed, missing=(), outliers=()):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    xy = torch.stack([1.0 + 0.3 * t, 2.0 - 0.2 * t], dim=1) + 0.05 * torch.randn(n, 2, generator=g)
    conf = torch.rand(n, 1, generator=g)
    dets = torch.cat([xy, conf], dim=1)
    for i in outliers:
        dets[i, :2] += 25.0
    for i in missing:
        dets[i] = float("nan")
    return dets


def example_inputs():
    return (_track(10, 1, missing=(4,)),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=1, max=200)},)


def verify_inputs():
    return [
        (_track(1, 2),),  # a single frame: initialisation only
        (_track(6, 3, missing=(0, 1)),),  # missed detections before the track starts
        (_track(30, 4, missing=(5, 6, 20), outliers=(10, 25)),),  # misses and gated outliers
        (_track(200, 5),),  # long clean track
        (_track(3, 6, missing=(0, 1, 2)),),  # never initialised
    ]
