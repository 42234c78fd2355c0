"""Camera auto-exposure (AE) loop for an embedded ISP.

A learned centre-weighted meter measures scene luminance; the loop adjusts the exposure value
(EV) in log2 steps until the metered mean hits the target, backing off when too much of the
frame clips.
"""

import torch
import torch.nn.functional as F
from torch import nn


class Meter(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 1, 5, padding=2)

    def forward(self, y: torch.Tensor) -> torch.Tensor:
        w = torch.softmax(0.1 * self.conv(F.avg_pool2d(y, 4)).flatten(), 0)
        return (w * F.avg_pool2d(y, 4).flatten()).sum()


class AutoExposure(nn.Module):
    def __init__(self, target: float = 0.18, tol: float = 0.05, max_iter: int = 8, clip_frac: float = 0.05):
        super().__init__()
        self.meter = Meter()
        self.target = target
        self.tol = tol
        self.max_iter = max_iter
        self.clip_frac = clip_frac

    def forward(self, raw: torch.Tensor):
        # raw: (1, 1, H, W) linear sensor values at EV 0
        ev = torch.zeros(())
        it = 0
        shot = torch.clamp(raw, 0.0, 1.0)
        err = torch.log2(torch.tensor(self.target)) - torch.log2(self.meter(shot) + 1e-4)
        while err.abs() > self.tol and it < self.max_iter:
            step = torch.clamp(0.8 * err, -2.0, 2.0)
            ev = ev + step
            shot = torch.clamp(raw * torch.pow(2.0, ev), 0.0, 1.0)
            clipped = (shot >= 1.0).float().mean()
            if clipped > self.clip_frac and err > 0:
                ev = ev - 0.5  # protect highlights
                shot = torch.clamp(raw * torch.pow(2.0, ev), 0.0, 1.0)
            err = torch.log2(torch.tensor(self.target)) - torch.log2(self.meter(shot) + 1e-4)
            it += 1
        return shot, ev, torch.tensor(it)


def model() -> nn.Module:
    torch.manual_seed(0)
    return AutoExposure().eval()


def _scene(h, w, level, seed, lamp=False):
    g = torch.Generator().manual_seed(seed)
    y = level * (0.5 + torch.rand(1, 1, h, w, generator=g))
    if lamp:
        y[..., : h // 3, : w // 3] = 50.0 * level
    return y


def example_inputs() -> tuple:
    return (_scene(64, 64, 0.05, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=256), 3: torch.export.Dim("w", min=16, max=256)},)


def verify_inputs() -> list:
    return [
        (_scene(48, 80, 0.18, 1),),              # already well exposed: no iteration
        (_scene(64, 96, 0.004, 2, lamp=True),),  # dark room with a lamp: highlight protection
        (_scene(32, 32, 0.9, 3),),               # bright: EV goes down
    ]
