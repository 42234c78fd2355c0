"""AR plane detection from a depth map (phone AR session).

Depth is optionally downsampled for large frames, back-projected to a grid, and a dominant plane
z = a*u + b*v + c is fitted by iteratively re-weighted least squares (Cauchy weights) until the
parameter update is tiny or an iteration cap is hit. If too few pixels are valid or the inlier
ratio is low, the frame reports "no plane" early.
Tricky: while loop on a tensor convergence test with a cap, early returns, dynamic size branches.
"""
import torch
import torch.nn.functional as F
from torch import nn


class PlaneDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.conf = nn.Conv2d(1, 1, 3, padding=1)
        self.max_iters = 8
        self.tol = 1e-3
        self.inlier_thr = 0.02
        self.min_inlier_ratio = 0.5

    def forward(self, depth):
        # depth: (1, 1, H, W) metres, 0 where invalid
        if depth.shape[2] >= 64 and depth.shape[3] >= 64:
            depth = F.avg_pool2d(depth, 2)
        H, W = depth.shape[2], depth.shape[3]
        valid = (depth > 0).float()
        if valid.mean() < 0.2:
            return torch.zeros(3), torch.zeros(1, 1, H, W), torch.zeros(())
        w0 = torch.sigmoid(self.conf(depth)) * valid
        v = torch.linspace(-1.0, 1.0, H).reshape(1, 1, H, 1).expand(1, 1, H, W)
        u = torch.linspace(-1.0, 1.0, W).reshape(1, 1, 1, W).expand(1, 1, H, W)
        A = torch.stack([u.reshape(-1), v.reshape(-1), torch.ones(H * W)], dim=1)
        z = depth.reshape(-1)
        w = w0.reshape(-1)
        params = torch.zeros(3)
        delta = torch.full((), 1.0)
        it = 0
        while it < self.max_iters and delta > self.tol:
            Aw = A * w.unsqueeze(1)
            new = torch.linalg.solve(Aw.t() @ A + 1e-6 * torch.eye(3), Aw.t() @ z)
            delta = (new - params).abs().max()
            params = new
            res = z - A @ params
            w = w0.reshape(-1) / (1.0 + (res / 0.02) ** 2)
            it += 1
        inliers = ((z - A @ params).abs() < self.inlier_thr).float() * valid.reshape(-1)
        ratio = inliers.sum() / valid.sum()
        if ratio < self.min_inlier_ratio:
            return torch.zeros(3), torch.zeros(1, 1, H, W), ratio
        return params, inliers.reshape(1, 1, H, W), ratio


def model():
    torch.manual_seed(5)
    return PlaneDetector().eval()


def _floor(h, w, a=0.1, b=0.3, c=1.5, clutter=0.0, holes=0.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    v = torch.linspace(-1.0, 1.0, h).reshape(h, 1)
    u = torch.linspace(-1.0, 1.0, w).reshape(1, w)
    d = a * u + b * v + c + 0.002 * torch.randn(h, w, generator=g)
    box = torch.rand(h, w, generator=g) < clutter
    d = torch.where(box, d - 0.5 * torch.rand(h, w, generator=g) - 0.1, d)
    d = torch.where(torch.rand(h, w, generator=g) < holes, torch.zeros(h, w), d)
    return d.reshape(1, 1, h, w)


def example_inputs():
    return (_floor(48, 64),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=160), 3: torch.export.Dim("w", min=8, max=160)},)


def verify_inputs():
    return [
        (_floor(96, 128, clutter=0.1, seed=1),),   # downsampled, robust fit
        (_floor(32, 32, holes=0.9, seed=2),),      # mostly invalid depth
        (_floor(40, 24, clutter=0.7, seed=3),),    # cluttered: low inlier ratio
        (_floor(64, 40, seed=4),),                 # only one side large
    ]
