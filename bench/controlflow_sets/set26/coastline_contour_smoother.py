"""Cartographic generalisation of a digitised coastline (open contour polyline).

Headlands and harbour corners (turn angle above a limit) are pinned; every other
interior vertex gets a learned stiffness.  Taubin lambda/mu smoothing steps (shrink, then inflate) are applied
while the largest vertex move is above tolerance, up to an iteration budget.  The
endpoints never move.  Returns the smoothed polyline, the number of sweeps and the
accumulated displacement.
"""
import math

import torch
import torch.nn as nn


class CoastlineSmoother(nn.Module):
    def __init__(self, lam=0.5, mu=-0.53, tol=0.02, max_iter=10, corner_cos=0.3, min_vertices=5):
        super().__init__()
        self.stiffness = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.lam, self.mu = lam, mu
        self.tol = tol
        self.max_iter = max_iter
        self.corner_cos = corner_cos
        self.min_vertices = min_vertices

    def laplacian(self, p):
        return 0.5 * (p[:-2] + p[2:]) - p[1:-1]

    def forward(self, pts):
        if pts.shape[0] < self.min_vertices:
            return pts, torch.tensor([0]), torch.zeros(())
        d_prev = pts[1:-1] - pts[:-2]
        d_next = pts[2:] - pts[1:-1]
        n_prev = d_prev.norm(dim=1)
        n_next = d_next.norm(dim=1)
        cos_turn = (d_prev * d_next).sum(dim=1) / (n_prev * n_next + 1e-8)
        free = (cos_turn > self.corner_cos).float()
        feats = torch.stack([cos_turn, torch.log(n_next / n_prev), self.laplacian(pts).norm(dim=1)], dim=1)
        w = (0.5 + 0.5 * torch.sigmoid(self.stiffness(feats)).squeeze(1)) * free

        p = pts
        it = 0
        travelled = torch.zeros(())
        step = self.lam * w[:, None] * self.laplacian(p)
        disp = step.norm(dim=1).amax()
        while disp > self.tol and it < self.max_iter:
            p = torch.cat([p[:1], p[1:-1] + step, p[-1:]])
            travelled = travelled + disp
            it += 1
            scale = self.lam if it % 2 == 0 else self.mu
            step = scale * w[:, None] * self.laplacian(p)
            disp = step.norm(dim=1).amax()
        return p, torch.tensor([it]), travelled


def model():
    torch.manual_seed(0)
    return CoastlineSmoother().eval()


def _arc(seed, n, noise, corner=False):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0.0, 1.0, n)
    if corner:
        # a right-angled harbour mole
        x = torch.where(t < 0.5, t * 2.0, torch.ones(n))
        y = torch.where(t < 0.5, torch.zeros(n), (t - 0.5) * 2.0)
        pts = torch.stack([x, y], dim=1) * 3.0
    else:
        pts = torch.stack([3.0 * torch.cos(t * math.pi / 3), 3.0 * torch.sin(t * math.pi / 3)], dim=1)
    return (pts + noise * torch.randn(n, 2, generator=g),)


def example_inputs():
    return _arc(1, 20, 0.04)


def dynamic_shapes():
    return ({0: torch.export.Dim("vertices", min=2, max=1024)},)


def verify_inputs():
    return [
        _arc(2, 4, 0.05),                # too few vertices
        _arc(3, 12, 0.0),                # already smooth: no sweep
        _arc(4, 15, 0.03),               # slightly noisy: one sweep
        _arc(9, 15, 0.04),               # noisy: a few sweeps
        _arc(6, 40, 0.3),                # very noisy: sweep budget runs out
        _arc(12, 21, 0.05, corner=True), # corner pinned, both sides smoothed
    ]
