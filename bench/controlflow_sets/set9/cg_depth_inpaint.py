"""Depth-map hole filling for a ToF / stereo depth sensor (AR occlusion, robot mapping).

Invalid pixels (depth 0) are filled by solving the discrete Laplace equation with the
valid pixels as boundary conditions, using conjugate gradient (`while` on the residual
norm with an iteration cap). A tiny CNN predicts the initial guess. Fully valid maps
are returned untouched and maps without any valid pixel get the prior (early returns).
Outputs: filled depth (1, 1, H, W) and CG iterations used (1,) int64.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class DepthInpaint(nn.Module):
    def __init__(self, tol=1e-4, max_iter=40):
        super().__init__()
        self.prior = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
        lap = torch.tensor([[0.0, -1.0, 0.0], [-1.0, 4.0, -1.0], [0.0, -1.0, 0.0]])
        self.register_buffer("lap", lap.view(1, 1, 3, 3))
        self.tol = tol
        self.max_iter = max_iter

    def apply_A(self, v, hole):
        # Laplacian restricted to hole pixels (known pixels act as Dirichlet boundary)
        return F.conv2d(F.pad(v * hole, (1, 1, 1, 1), mode="replicate"), self.lap) * hole

    def forward(self, depth):
        valid = depth > 0
        if valid.all():
            return depth, torch.zeros(1, dtype=torch.long)
        mean_depth = depth.sum() / valid.sum().clamp_min(1)
        guess = mean_depth + 0.1 * self.prior(torch.cat([depth, valid.float()], 1))
        if not valid.any():
            return guess.clamp_min(0.1), torch.zeros(1, dtype=torch.long)
        hole = (~valid).float()
        known = depth * valid.float()
        b = -F.conv2d(F.pad(known, (1, 1, 1, 1), mode="replicate"), self.lap) * hole
        x = guess * hole
        r = b - self.apply_A(x, hole)
        p = r
        rs = (r * r).sum()
        b_norm = b.norm().clamp_min(1e-6)
        k = torch.zeros(1, dtype=torch.long)
        while rs.sqrt() > self.tol * b_norm and k < self.max_iter:
            Ap = self.apply_A(p, hole)
            alpha = rs / (p * Ap).sum().clamp_min(1e-12)
            x = x + alpha * p
            r = r - alpha * Ap
            rs_new = (r * r).sum()
            p = r + (rs_new / rs) * p
            rs = rs_new
            k = k + 1
        return known + x * hole, k


def model():
    torch.manual_seed(0)
    return DepthInpaint().eval()


def _depth(h, w, seed, holes=()):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.linspace(0, 1, h), torch.linspace(0, 1, w), indexing="ij")
    d = 1.5 + 0.8 * xx + 0.3 * torch.sin(6 * yy) + 0.01 * torch.rand(h, w, generator=g)
    for y0, y1, x0, x1 in holes:
        d[y0:y1, x0:x1] = 0.0
    return (d.view(1, 1, h, w),)


def example_inputs():
    return _depth(48, 64, 1, holes=((10, 20, 10, 30), (30, 40, 40, 50)))


def dynamic_shapes():
    return {"depth": {2: Dim("h", min=8, max=240), 3: Dim("w", min=8, max=320)}}


def verify_inputs():
    return [
        _depth(32, 32, 2),  # no holes: untouched
        (torch.zeros(1, 1, 16, 24),),  # nothing valid: prior only
        _depth(64, 80, 3, holes=((0, 64, 30, 50),)),  # big hole: CG hits the iteration cap
        _depth(16, 16, 4, holes=((7, 8, 7, 8),)),  # single pixel
    ]
