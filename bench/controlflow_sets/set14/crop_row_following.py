"""Crop row following for a field robot: vegetation probability from an excess-green
index refined by a tiny conv, per-image-row centroids, then an iteratively reweighted
least-squares line fit (Cauchy weights) until the line stops moving. Outputs heading
error and lateral offset, or a 'row lost' flag."""

import torch
from torch import nn
import torch.nn.functional as F


def row_centroids(veg: torch.Tensor):
    """veg: (H, W) probabilities -> per-row centroid x and a validity mask."""
    Wd = veg.shape[1]
    xs = torch.linspace(-1.0, 1.0, Wd)
    mass = veg.sum(dim=1)
    cx = (veg * xs).sum(dim=1) / mass.clamp_min(1e-6)
    return cx, (mass > 1.5).float()


class RowFollower(nn.Module):
    def __init__(self, max_iter: int = 5, tol: float = 1e-4):
        super().__init__()
        self.refine = nn.Conv2d(3, 1, 3, padding=1)
        self.max_iter = max_iter
        self.tol = tol

    def fit_line(self, y, x, w0):
        a = torch.zeros(())
        b = torch.zeros(())
        delta = torch.ones(())
        it = 0
        while it < self.max_iter and delta > self.tol:
            r = x - (a * y + b)
            w = w0 / (1.0 + (r / 0.1) ** 2)
            sw, sy, sx = w.sum(), (w * y).sum(), (w * x).sum()
            syy, sxy = (w * y * y).sum(), (w * x * y).sum()
            den = sw * syy - sy * sy
            a_new = (sw * sxy - sy * sx) / den
            b_new = (sx - a_new * sy) / sw
            delta = (a_new - a).abs() + (b_new - b).abs()
            a, b = a_new, b_new
            it += 1
        return a, b

    def forward(self, rgb: torch.Tensor):
        # rgb: (1, 3, H, W) in [0, 1]
        r, g, b = rgb[0, 0], rgb[0, 1], rgb[0, 2]
        exg = 2 * g - r - b
        veg = torch.sigmoid(12.0 * (exg - 0.2) + 0.1 * self.refine(rgb)[0, 0])
        cx, valid = row_centroids(veg)
        if valid.sum() < 4 or veg.mean() > 0.8:
            # too few rows with plants, or canopy closed: no usable row structure
            return torch.zeros(2), torch.ones(1)
        Hd = rgb.shape[2]
        y = torch.linspace(1.0, 0.0, Hd)
        slope, offset = self.fit_line(y, cx, valid)
        heading = torch.atan(slope)
        return torch.stack([heading, offset]), torch.zeros(1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return RowFollower().eval()


def _field(H, W, slope, offset, seed, weeds=0, bare_rows=0, canopy=False):
    g = torch.Generator().manual_seed(seed)
    img = torch.zeros(1, 3, H, W)
    img[0, 0] = 0.45 + 0.05 * torch.rand(H, W, generator=g)   # soil
    img[0, 1] = 0.35 + 0.05 * torch.rand(H, W, generator=g)
    img[0, 2] = 0.3
    xs = torch.linspace(-1, 1, W)
    for i in range(bare_rows, H):
        yy = 1.0 - i / (H - 1)
        cx = slope * yy + offset
        m = (xs - cx).abs() < 0.15
        img[0, 1, i, m] = 0.9
        img[0, 0, i, m] = 0.2
    for k in range(weeds):
        i = int(torch.randint(0, H, (1,), generator=g))
        j = int(torch.randint(0, W, (1,), generator=g))
        img[0, 1, i, j:j + 3] = 0.9
        img[0, 0, i, j:j + 3] = 0.2
    if canopy:
        img[0, 1] = 0.9
        img[0, 0] = 0.2
    return (img,)


def example_inputs() -> tuple:
    return _field(24, 32, 0.2, 0.1, 0)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=64), 3: torch.export.Dim("w", min=16, max=96)},)


def verify_inputs() -> list:
    return [
        _field(48, 64, -0.4, 0.0, 1, weeds=12),    # weeds -> more IRLS iterations
        _field(16, 20, 0.0, 0.3, 2, bare_rows=14),  # only 2 rows with plants: lost
        _field(32, 32, 0.1, 0.0, 3, canopy=True),   # canopy closed: lost
        _field(8, 96, 0.5, -0.2, 4),
    ]
