"""Forest inventory from airborne LiDAR: detect individual tree tops in a canopy height model
(local maxima at an adaptively chosen smoothing scale, tiled for large rasters) and return
stand statistics.

Kind X. Constructs: 1 2 5 6 7 8 9
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianSmoother(nn.Module):
    """Fixed Gaussian filter (replicate border), one ModuleList entry per scale."""

    def __init__(self, sigma):
        super().__init__()
        k = 2 * math.ceil(2 * sigma) + 1
        ax = torch.arange(k, dtype=torch.float32) - k // 2
        w = torch.exp(-ax ** 2 / (2 * sigma ** 2))
        w = w / w.sum()
        self.register_buffer("kernel", torch.outer(w, w)[None, None])
        self.pad = k // 2

    def forward(self, x):
        p = self.pad
        return F.conv2d(F.pad(x, (p, p, p, p), mode="replicate"), self.kernel)


class CrownDetector(nn.Module):
    def __init__(self, tile=64, min_height=2.0, max_density=0.03):
        super().__init__()
        self.smoothers = nn.ModuleList([GaussianSmoother(sg) for sg in (0.7, 1.2, 1.8)])
        self.tile = tile
        self.min_height = min_height
        self.max_density = max_density     # tree tops per pixel (1 m pixels)
        # learned height calibration (LiDAR under-samples tree tops)
        self.calib = nn.Linear(1, 1)

    def local_maxima(self, s):
        return (s == F.max_pool2d(s, 3, stride=1, padding=1)) & (s > self.min_height)

    def detect(self, chm):
        # finest smoothing scale that does not over-segment crowns
        for smooth in self.smoothers:
            s = smooth(chm)
            peaks = self.local_maxima(s)
            if peaks.float().mean() <= self.max_density:
                break
        return s[peaks]

    def forward(self, chm):
        chm = chm.clamp(0.0, 80.0)
        H, W = chm.shape[-2], chm.shape[-1]
        if H * W <= 2 * self.tile * self.tile:
            heights = self.detect(chm)
        else:
            parts = []
            for i in range(0, H, self.tile):
                for j in range(0, W, self.tile):
                    patch = chm[..., i:i + self.tile, j:j + self.tile]
                    if patch.mean() < 1.0:
                        continue        # bare ground / water / road
                    parts.append(self.detect(patch))
            heights = torch.cat(parts) if len(parts) > 0 else chm.new_zeros(0)
        if heights.numel() == 0:
            return torch.zeros(3)
        h = heights + 0.1 * torch.tanh(self.calib(heights[:, None])).squeeze(1)
        return torch.stack([torch.tensor(float(h.numel())), h.mean(), h.max()])


def model():
    torch.manual_seed(18)
    return CrownDetector().eval()


def _make_chm(h, w, trees, seed):
    """Gaussian crowns (max-composited): trees = list of (row, col, height, radius), plus small noise."""
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    chm = torch.zeros(h, w)
    for r, c, ht, rad in trees:
        chm = torch.maximum(chm, ht * torch.exp(-((yy - r) ** 2 + (xx - c) ** 2) / (2 * rad ** 2)))
    chm = chm + 0.01 * torch.rand(h, w, generator=g)
    return (chm[None, None],)


def _make_grid_trees(h, w, spacing, height, radius, r0=0, c0=0):
    trees = []
    for r in range(r0 + spacing // 2, h, spacing):
        for c in range(c0 + spacing // 2, w, spacing):
            trees.append((r + 0.3, c + 0.2, height + (r * 7 + c * 3) % 5, radius))
    return trees


def example_inputs():
    return _make_chm(48, 64, _make_grid_trees(48, 64, 12, 15.0, 2.5), 5)


def dynamic_shapes():
    return ({2: torch.export.Dim("rows", min=16, max=256), 3: torch.export.Dim("cols", min=16, max=256)},)


def verify_inputs():
    return [
        example_inputs(),    # single raster, well separated crowns: finest scale accepted (break at first)
        _make_chm(32, 32, _make_grid_trees(32, 32, 4, 10.0, 0.5), 2),
        # ^ dense seedlings 4 px apart: finest scale over-segments, second accepted (break at second)
        _make_chm(32, 32, _make_grid_trees(32, 32, 4, 10.0, 0.7), 2),
        # ^ slightly larger crowns: accepted only at the coarsest scale (break at third)
        _make_chm(32, 32, _make_grid_trees(32, 32, 5, 10.0, 1.3), 2),
        # ^ plantation 5 px apart: over-segmented at every scale, loop finishes without break
        _make_chm(160, 100, _make_grid_trees(60, 60, 8, 15.0, 2.5) + _make_grid_trees(124, 100, 8, 18.0, 2.5, 64, 64), 3),
        # ^ large raster (tiled 3x2): two forested tiles, the other four bare (continue)
        _make_chm(24, 30, [], 4),
        # ^ bare field: no peaks above 2 m, zero result
        _make_chm(140, 140, [], 5),
        # ^ large bare raster: every tile skipped, no parts collected
    ]
