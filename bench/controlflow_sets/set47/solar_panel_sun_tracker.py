"""Dual-axis solar tracker: hill-climb the panel orientation on a sampled sky
radiance map with step halving, within the elevation travel limits.

Constructs: 1, 2 (night early return, helper early return for shaded panels), 3 (`or` of tensor
predicates, `not`), 4 (while on a tensor step size), 6 (continue at the travel
limit, break on the first improving move), 7 (helper with its own branch),
9 (loop over a static list of moves).
"""
import math

import torch
import torch.nn as nn


def panel_normal(ang):
    az, el = ang[0] * (math.pi / 180.0), ang[1] * (math.pi / 180.0)
    return torch.stack([torch.cos(el) * torch.cos(az), torch.cos(el) * torch.sin(az), torch.sin(el)])


def captured_power(ang, dirs, rad):
    cosines = dirs @ panel_normal(ang)
    power = (rad * cosines.clamp(min=0.0)).sum()
    if ang[1] < 12.5:
        return 0.7 * power  # steep panel: shaded by the row in front
    return power


class SunTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.moves = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)]
        self.cloud = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, dirs, rad, start):
        # dirs: [S, 3] unit sky directions, rad: [S] radiance, start: [2] (azimuth, elevation) deg
        if rad.sum() < 1e-3:
            return torch.tensor([0.0, 90.0]), torch.zeros(1), torch.zeros(1)  # night: stow flat
        ang = start.clone()
        p = captured_power(ang, dirs, rad)
        step = torch.tensor(8.0)
        iters = 0
        while step > 0.5 and iters < 100:
            improved = False
            for daz, delv in self.moves:
                cand = ang + step * torch.tensor([daz, delv])
                if cand[1] < 0.0 or cand[1] > 90.0:
                    continue
                pc = captured_power(cand, dirs, rad)
                if pc > p * 1.0001:
                    ang, p, improved = cand, pc, True
                    break
            if not improved:
                step = step / 2
            iters += 1
        stats = torch.stack([rad.mean(), rad.max(), rad.std()])
        cloud = torch.sigmoid(self.cloud(stats))
        return ang, p.reshape(1), cloud


def model():
    torch.manual_seed(13)
    return SunTracker().eval()


def _sky(S, sun_az, sun_el, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    az = torch.rand(S, generator=g) * 2 * math.pi
    el = torch.rand(S, generator=g) * (math.pi / 2)
    dirs = torch.stack([torch.cos(el) * torch.cos(az), torch.cos(el) * torch.sin(az), torch.sin(el)], 1)
    sa, se = math.radians(sun_az), math.radians(sun_el)
    sun = torch.tensor([math.cos(se) * math.cos(sa), math.cos(se) * math.sin(sa), math.sin(se)])
    rad = scale * (0.05 + torch.exp(8.0 * ((dirs @ sun) - 1.0)))
    return dirs, rad


def example_inputs():
    d, r = _sky(64, 120.0, 40.0, 0)
    return (d, r, torch.tensor([100.0, 30.25]))


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=4, max=256)}, {0: torch.export.Dim("samples", min=4, max=256)}, None)


def verify_inputs():
    d2, r2 = _sky(128, 200.0, 80.0, 1)
    d3, r3 = _sky(256, 60.0, 20.0, 2)
    d4, r4 = _sky(4, 0.0, 45.0, 3)
    d5, r5 = _sky(16, 10.0, 30.0, 4, scale=0.0)
    return [
        example_inputs(),                               # climb in az and el, break + halving
        (d2, r2, torch.tensor([180.0, 86.25])),          # near zenith: elevation limit -> continue
        (d3, r3, torch.tensor([240.0, 4.25])),           # facing away, low: lower limit continue, long climb
        (d4, r4, torch.tensor([0.0, 45.25])),           # min size
        (d5, r5, torch.tensor([0.0, 45.0])),            # night -> early return
    ]
