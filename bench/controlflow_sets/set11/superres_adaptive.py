"""Image super-resolution (x2) with adaptive iterations, for a phone gallery app.

Bilinear upsampling plus a small refiner, followed by iterative back-projection: repeat while the
downsampled estimate still differs from the input by more than a tolerance, with an iteration
budget that shrinks for large images. The refiner clamps its residual when it gets too large.
Typical: while with a tensor convergence test and a cap, branch on dynamic sizes, control flow
inside a submodule forward.
"""
import torch
import torch.nn.functional as F
from torch import nn


class Refiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))
        self.clip = 0.3

    def forward(self, x):
        res = self.body(x)
        if res.abs().max() > self.clip:
            res = self.clip * torch.tanh(res / self.clip)
        return x + res


class AdaptiveSR(nn.Module):
    def __init__(self):
        super().__init__()
        self.refiner = Refiner()
        self.tol = 5e-4
        self.step = 0.7

    def forward(self, lr):
        # lr: (1, 3, H, W) in [0, 1]
        H, W = lr.shape[2], lr.shape[3]
        max_iters = 2 if H * W > 48 * 48 else 8
        sr = self.refiner(F.interpolate(lr, scale_factor=2.0, mode="bilinear", align_corners=False))
        err = (F.avg_pool2d(sr, 2) - lr).abs().mean()
        it = 0
        while err > self.tol and it < max_iters:
            diff = lr - F.avg_pool2d(sr, 2)
            sr = sr + self.step * F.interpolate(diff, scale_factor=2.0, mode="bilinear", align_corners=False)
            err = (F.avg_pool2d(sr, 2) - lr).abs().mean()
            it += 1
        return sr.clamp(0.0, 1.0), err


def model():
    torch.manual_seed(15)
    return AdaptiveSR().eval()


def _img(h, w, seed, contrast=1.0):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(1, 3, h // 4 + 1, w // 4 + 1, generator=g)
    img = F.interpolate(base, size=(h, w), mode="bilinear", align_corners=False)
    return 0.5 + contrast * (img - 0.5)


def example_inputs():
    return (_img(32, 32, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=128), 3: torch.export.Dim("w", min=8, max=128)},)


def verify_inputs():
    return [
        (_img(64, 80, 1),),                  # large: small iteration budget
        (torch.full((1, 3, 16, 16), 0.5),),  # flat image
        (_img(24, 40, 2, contrast=0.2),),
    ]
