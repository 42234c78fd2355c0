"""2x super-resolution that processes large images tile by tile.

Small images go through the network in one pass; larger ones are split into fixed-size
tiles (number of tiles follows the image size) that are upscaled independently and
stitched back.  Flat tiles (sky, walls) skip the network and are simply interpolated.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SRNet(nn.Module):
    def __init__(self, ch=16, scale=2, residual=True):
        super().__init__()
        self.scale = scale
        self.residual = residual
        self.head = nn.Conv2d(3, ch, 3, padding=1)
        self.body = nn.Conv2d(ch, ch, 3, padding=1)
        self.up = nn.Conv2d(ch, 3 * scale * scale, 3, padding=1)
        with torch.no_grad():
            self.up.weight.mul_(0.1)

    def forward(self, x):
        h = F.relu(self.head(x))
        h = h + F.relu(self.body(h))
        out = F.pixel_shuffle(self.up(h), self.scale)
        if self.residual:
            out = out + F.interpolate(x, scale_factor=self.scale, mode="bilinear", align_corners=False)
        return out


class TiledUpscaler(nn.Module):
    def __init__(self, tile=32, flat_std=0.02):
        super().__init__()
        self.tile = tile
        self.flat_std = flat_std
        self.net = SRNet()

    def upscale_tile(self, t):
        if t.std() < self.flat_std:
            return F.interpolate(t, scale_factor=2, mode="bilinear", align_corners=False)
        return self.net(t)

    def forward(self, img):
        H, W = img.shape[2], img.shape[3]
        if H <= self.tile and W <= self.tile:
            return self.upscale_tile(img)
        rows = []
        for y in range(0, H, self.tile):
            row = []
            for x in range(0, W, self.tile):
                row.append(self.upscale_tile(img[:, :, y: y + self.tile, x: x + self.tile]))
            rows.append(torch.cat(row, dim=3))
        return torch.cat(rows, dim=2)


def model():
    torch.manual_seed(0)
    return TiledUpscaler().eval()


def _img(g, H, W, flat_cols=0):
    """textured image whose first flat_cols columns are a flat grey area."""
    img = torch.rand(1, 3, H, W, generator=g)
    if flat_cols:
        img[..., :flat_cols] = 0.5 + 0.002 * torch.randn(1, 3, H, flat_cols, generator=g)
    return (img,)


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _img(g, 40, 48, 32)


def dynamic_shapes():
    return ({2: torch.export.Dim("height", min=8, max=256), 3: torch.export.Dim("width", min=8, max=256)},)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        _img(g, 24, 20),              # single pass, textured
        _img(g, 16, 30, 30),          # single pass, flat
        _img(g, 20, 70, 32),          # one tile row, three tile columns (first flat)
        _img(g, 72, 24),              # three tile rows, one column
        _img(g, 40, 40),              # 2x2 tiles, the last row and column partial
    ]
