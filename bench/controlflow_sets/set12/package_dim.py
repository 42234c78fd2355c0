"""Package dimensioning from an overhead depth sensor.

The floor depth is estimated from the image border and refined iteratively (a
convergence loop with an iteration cap). Pixels sufficiently above the floor form the
parcel; its footprint extent and peak height give length / width / height in metres.
"""
import torch
from torch import nn
import torch.nn.functional as F


class PackageDimensioner(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("kernel", torch.full((1, 1, 3, 3), 1.0 / 9.0))
        self.tol = 1e-4
        self.max_iter = 4
        self.min_height = 0.03      # m
        self.min_pixels = 20
        self.pixel_angle = 0.01     # rad per pixel (pinhole approximation)
        self.max_length = 0.6
        self.max_height = 0.4

    def forward(self, depth: torch.Tensor):
        d = F.conv2d(F.pad(depth, (1, 1, 1, 1), mode="replicate"), self.kernel)[0, 0]
        border = torch.cat([d[0], d[-1], d[:, 0], d[:, -1]])
        floor = border.median()
        change = torch.full((), 1.0)
        it = 0
        while change > self.tol and it < self.max_iter:
            near = (d - floor).abs() < 0.05
            new_floor = (d * near).sum() / near.sum().clamp_min(1)
            change = (new_floor - floor).abs()
            floor = new_floor
            it += 1
        height_map = (floor - d).clamp_min(0.0)
        mask = height_map > self.min_height
        if mask.sum() < self.min_pixels:
            return torch.zeros(3), torch.zeros((), dtype=torch.bool)
        rows = mask.any(dim=1).float().sum()
        cols = mask.any(dim=0).float().sum()
        top = floor - height_map.amax()
        length = cols * self.pixel_angle * top
        width = rows * self.pixel_angle * top
        height = height_map.amax()
        if width > length:
            length, width = width, length
        oversize = (length > self.max_length) | (height > self.max_height)
        return torch.stack([length, width, height]), oversize


def model():
    torch.manual_seed(0)
    return PackageDimensioner().eval()


def _scene(seed, H, W, box=None, floor=1.2, tilt=0.0):
    g = torch.Generator().manual_seed(seed)
    yy = torch.linspace(-1, 1, H).view(H, 1)
    d = floor + tilt * yy + torch.zeros(H, W) + torch.randn(H, W, generator=g) * 0.004
    if box is not None:
        y0, y1, x0, x1, h = box
        d[y0:y1, x0:x1] = floor - h
    return d.view(1, 1, H, W)


def example_inputs():
    return (_scene(0, 48, 64, (10, 30, 12, 50, 0.25)),)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=16, max=240), 3: torch.export.Dim("W", min=16, max=320)},)


def verify_inputs():
    return [
        (_scene(1, 40, 40),),                                   # empty floor
        (_scene(2, 60, 50, (5, 55, 20, 30, 0.1)),),             # tall narrow: width > length swap
        (_scene(3, 120, 160, (20, 110, 10, 150, 0.5), tilt=0.12),),  # oversize, more refinement steps
        (_scene(4, 32, 32, (14, 16, 14, 16, 0.2)),),            # too few pixels
    ]
