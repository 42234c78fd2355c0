"""Satellite (SAR) ship detector with a land mask.

Inputs: a SAR intensity tile (1, 1, H, W) and a land mask (1, 1, H, W) (1 = land), H and W
dynamic. Tiles that are almost all land are skipped. Large tiles are processed at half
resolution. A CFAR-style detector compares each pixel with its local background, refined
by a small learned filter; sea-only local maxima above the threshold are returned as
pixel coordinates with their contrast (a data-dependent number of detections).
"""
import torch
from torch import nn
import torch.nn.functional as F


class ShipDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.refine = nn.Conv2d(1, 1, 3, padding=1)
        with torch.no_grad():
            self.refine.weight.mul_(0.1)
            self.refine.bias.zero_()
        self.max_land = 0.95
        self.k = 1.5

    def forward(self, sar: torch.Tensor, land: torch.Tensor):
        if land.mean() > self.max_land:
            return torch.zeros(0, 2, dtype=torch.long), torch.zeros(0)
        x = torch.log1p(sar)
        scale = 1
        if sar.shape[2] >= 128 and sar.shape[3] >= 128:
            x = F.avg_pool2d(x, 2)
            land = F.max_pool2d(land, 2)
            scale = 2
        bg = F.avg_pool2d(x, 9, stride=1, padding=4, count_include_pad=False)
        contrast = x - bg + self.refine(x)
        peak = contrast == F.max_pool2d(contrast, 3, stride=1, padding=1)
        det = (contrast > self.k) & (land < 0.5) & peak
        idx = det[0, 0].nonzero()
        return idx * scale, contrast[0, 0][det[0, 0]]


def model():
    torch.manual_seed(14)
    return ShipDetector().eval()


def _tile(seed, H, W, land_cols=0, ships=()):
    g = torch.Generator().manual_seed(seed)
    sar = torch.rand(1, 1, H, W, generator=g).pow(2) * 0.5
    land = torch.zeros(1, 1, H, W)
    if land_cols:
        land[..., :land_cols] = 1.0
        sar[..., :land_cols] = sar[..., :land_cols] * 4.0 + 1.0
    for y, x in ships:
        sar[..., y:y + 2, x:x + 2] = 40.0 + (y + x) % 7
    return sar, land


def example_inputs():
    return _tile(0, 64, 64, 10, [(20, 30), (40, 50)])


def dynamic_shapes():
    h = torch.export.Dim("H", min=16, max=1024)
    w = torch.export.Dim("W", min=16, max=1024)
    return ({2: h, 3: w}, {2: h, 3: w})


def verify_inputs():
    return [_tile(1, 32, 40, 40), _tile(2, 160, 200, 50, [(10, 100), (100, 150), (60, 20)]),
            _tile(3, 128, 96, 0, []), _tile(4, 48, 48, 0, [(5, 5)])]
