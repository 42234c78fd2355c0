"""LiDAR ground-plane segmentation with deterministic RANSAC (delivery robot / AV edge box).

Hypotheses are built from fixed fractional sample positions scaled to the dynamic
number of points. Degenerate triplets and non-horizontal planes are skipped
(`continue`, `not`), the best hypothesis is kept across iterations (variables keep
their previous value when a hypothesis is worse), and the search stops early
(`break`) once enough points are inliers. If no hypothesis survives, an all-zero
mask is returned. The winning plane is refined by least squares on its inliers.
Outputs: ground mask (N,) float, plane [a, b, c, d] (4,) with ax+by+cz+d=0.
"""

import torch
import torch.nn as nn
from torch.export import Dim


def plane_from_points(p0, p1, p2):
    n = torch.linalg.cross(p1 - p0, p2 - p0)
    return n, n.norm()


class RansacGround(nn.Module):
    def __init__(self, iters=24, dist_thr=0.08, min_up=0.9, stop_frac=0.6):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.register_buffer("frac", torch.rand(iters, 3, generator=g))
        self.dist_thr = dist_thr
        self.min_up = min_up
        self.stop_frac = stop_frac

    def forward(self, points):
        n_pts = points.shape[0]
        idx = (self.frac * n_pts).long().clamp(max=n_pts - 1)
        best_count = torch.zeros((), dtype=torch.long)
        best_plane = torch.zeros(4)
        best_mask = torch.zeros(n_pts, dtype=torch.bool)
        for i in range(self.frac.shape[0]):
            p0, p1, p2 = points[idx[i, 0]], points[idx[i, 1]], points[idx[i, 2]]
            normal, norm = plane_from_points(p0, p1, p2)
            if norm < 1e-6:
                continue
            normal = normal / norm
            if not (normal[2].abs() > self.min_up):
                continue
            d = -(normal * p0).sum()
            mask = ((points @ normal) + d).abs() < self.dist_thr
            count = mask.sum()
            if count > best_count:
                best_count, best_mask = count, mask
                best_plane = torch.cat([normal, d.view(1)])
            if best_count > self.stop_frac * n_pts:
                break
        if best_count < 3:
            return torch.zeros(n_pts), torch.zeros(4)
        # least-squares refinement z = a x + b y + c on the inliers
        w = best_mask.float().unsqueeze(1)
        A = torch.cat([points[:, :2], torch.ones(n_pts, 1)], 1) * w
        coef = torch.linalg.solve(A.T @ A + 1e-4 * torch.eye(3), A.T @ (points[:, 2:3] * w)).view(3)
        plane = torch.stack([coef[0], coef[1], torch.tensor(-1.0), coef[2]])
        plane = plane / plane[:3].norm()
        return best_mask.float(), plane


def model():
    torch.manual_seed(0)
    return RansacGround().eval()


def _cloud(n, seed, ground_frac, tilt=0.0):
    g = torch.Generator().manual_seed(seed)
    k = int(n * ground_frac)
    xy = torch.rand(n, 2, generator=g) * 20 - 10
    z = torch.empty(n)
    z[:k] = tilt * xy[:k, 0] + 0.01 * torch.randn(k, generator=g) - 1.7
    z[k:] = torch.rand(n - k, generator=g) * 3 - 1.5
    return (torch.cat([xy, z.unsqueeze(1)], 1),)


def example_inputs():
    return _cloud(1024, 1, 0.5)


def dynamic_shapes():
    return {"points": {0: Dim("n_points", min=16, max=65536)}}


def verify_inputs():
    return [
        _cloud(2000, 2, 0.9),  # mostly ground: early break
        _cloud(300, 3, 0.3, tilt=0.05),  # slope, no early stop
        _cloud(16, 4, 0.0, tilt=0.0),  # no ground at all
        (
            torch.tensor([[float(i), 0.5 * i, 3.0 * i] for i in range(32)]),
        ),  # collinear/vertical points: degenerate
    ]
