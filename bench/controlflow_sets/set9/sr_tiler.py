"""Tiled 2x super-resolution for a photo-enhance feature on phones.

Small images go through the network in one shot (early return). Large images are
processed tile by tile (nested loops over tile counts derived from the dynamic H, W)
to bound memory; flat tiles (low std, e.g. sky) skip the network and use bilinear
upsampling (`continue`). The network's residual-vs-direct output is a config flag.
Output: (1, 3, 2H, 2W).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class TinySR(nn.Module):
    def __init__(self, ch=16, residual=True):
        super().__init__()
        self.residual = residual
        self.body = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(ch, 12, 3, padding=1),
        )
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, x):
        y = self.shuffle(self.body(x))
        if self.residual:  # static config flag
            y = y + F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
        return y


class TiledSR(nn.Module):
    def __init__(self, tile=64, flat_std=0.02):
        super().__init__()
        self.net = TinySR()
        self.tile = tile
        self.flat_std = flat_std

    def forward(self, img):
        h, w = img.shape[-2], img.shape[-1]
        if h <= self.tile and w <= self.tile:
            return self.net(img).clamp(0, 1)
        rows = []
        for i in range((h + self.tile - 1) // self.tile):
            row = []
            for j in range((w + self.tile - 1) // self.tile):
                tile = img[..., i * self.tile : (i + 1) * self.tile, j * self.tile : (j + 1) * self.tile]
                if tile.std() < self.flat_std:
                    row.append(F.interpolate(tile, scale_factor=2, mode="bilinear", align_corners=False))
                    continue
                row.append(self.net(tile))
            rows.append(torch.cat(row, dim=-1))
        return torch.cat(rows, dim=-2).clamp(0, 1)


def model():
    torch.manual_seed(0)
    return TiledSR().eval()


def _img(h, w, seed, flat_top=False):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(1, 3, h, w, generator=g)
    if flat_top:
        x[..., :64, :] = 0.6 + 0.01 * torch.rand(1, 3, min(64, h), w, generator=g)
    return (x,)


def example_inputs():
    return _img(96, 128, 1)


def dynamic_shapes():
    return {"img": {2: Dim("h", min=16, max=512), 3: Dim("w", min=16, max=512)}}


def verify_inputs():
    return [_img(48, 60, 2), _img(150, 200, 3, flat_top=True), _img(40, 130, 4)]
