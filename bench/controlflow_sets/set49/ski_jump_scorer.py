"""Ski jumping competition scoring: distance points, trimmed judges' style marks,
wind / gate compensation, jury gate decision and the cut to the final round."""
import torch
import torch.nn as nn
from torch.export import Dim


class SkiJumpScorer(nn.Module):
    def __init__(self, k_point=120.0, hill_size=137.0, wind_comp=True, cut_size=30):
        super().__init__()
        self.k_point = k_point
        self.hill_size = hill_size
        # meter value and base points depend on the hill category (static)
        self.meter_value = 1.8 if k_point < 170 else 1.2
        self.base_points = 60.0 if k_point < 170 else 120.0
        self.wind_comp = wind_comp
        self.cut_size = cut_size
        # small per-judge calibration offsets
        self.judge_bias = nn.Parameter(torch.randn(5) * 0.1)

    def distance_points(self, dist):
        pts = self.base_points + self.meter_value * (dist - self.k_point)
        return pts.clamp(min=0.0)

    def forward(self, style, dist, wind, gate):
        # style: [N, 5] judges' marks, dist: [N] metres,
        # wind: [N] m/s (+ = headwind), gate: [N] gate change vs. start gate
        marks = (style - self.judge_bias).clamp(0.0, 20.0)
        marks, _ = marks.sort(dim=1)
        style_pts = marks[:, 1:4].sum(dim=1)  # drop highest and lowest mark
        total = self.distance_points(dist) + style_pts
        if self.wind_comp:
            total = total - torch.where(wind > 0, 8.0 * wind, 9.68 * wind)
        if (gate != 0).any():
            total = total - 7.0 * gate

        # jury lowers the gate if someone flew past hill size with a clean landing
        next_gate = torch.zeros(())
        if (dist > self.hill_size).any() and not bool((style < 14.0).any()):
            next_gate = next_gate - 1.0

        if total.shape[0] > self.cut_size:
            finalists = total.topk(self.cut_size).values
        else:
            finalists, _ = total.sort(descending=True)
        return finalists, next_gate


def model():
    torch.manual_seed(4901)
    return SkiJumpScorer().eval()


def _field(n, seed, beyond_hs=False, low_mark=False, gates=True):
    g = torch.Generator().manual_seed(seed)
    style = 16.0 + 0.5 * torch.randint(0, 8, (n, 5), generator=g).float()
    dist = 100.0 + 30.0 * torch.rand(n, generator=g)
    wind = torch.rand(n, generator=g) * 3.0 - 1.5
    gate = torch.randint(-2, 3, (n,), generator=g).float() if gates else torch.zeros(n)
    if beyond_hs:
        dist[0] = 142.5
    if low_mark:
        style[1, 2] = 10.0
    return style, dist, wind, gate


def example_inputs():
    # 8 jumpers, gate changes, nobody past HS -> no cut (sort), gate branch taken
    return _field(8, 1)


def dynamic_shapes():
    n = Dim("jumpers", min=2, max=64)
    return ({0: n}, {0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),
        _field(40, 2, gates=False),                  # >30 jumpers -> topk cut; no gate change
        _field(5, 3, beyond_hs=True),                # past HS, clean landings -> gate lowered
        _field(6, 4, beyond_hs=True, low_mark=True), # past HS but a low mark -> gate kept
        _field(2, 5),                                # minimum field
        _field(64, 6, beyond_hs=True),               # maximum field, cut + gate lowered
    ]
