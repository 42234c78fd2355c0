"""Satellite change detection (before/after 4-band tiles, variable tile size): tiles are
padded to a multiple of 16, identical acquisitions short-circuit, a shared encoder
(with haze normalisation) compares the two dates and a decoder gives a change map."""

import torch
from torch import nn
import torch.nn.functional as F

MULT = 16


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(4, 16, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, stride=2, padding=1)

    def forward(self, x):
        if x.mean() > 0.6:
            # hazy / over-exposed acquisition: stretch to the tile's own range
            lo = x.amin(dim=(2, 3), keepdim=True)
            hi = x.amax(dim=(2, 3), keepdim=True)
            x = (x - lo) / (hi - lo).clamp_min(1e-3)
        return F.relu(self.c2(F.relu(self.c1(x))))


class ChangeDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Encoder()
        self.dec = nn.Conv2d(32, 1, 1)

    def forward(self, before: torch.Tensor, after: torch.Tensor):
        Hd, Wd = before.shape[2], before.shape[3]
        if Hd % MULT != 0 or Wd % MULT != 0:
            ph = (MULT - Hd % MULT) % MULT
            pw = (MULT - Wd % MULT) % MULT
            before = F.pad(before, (0, pw, 0, ph), mode="replicate")
            after = F.pad(after, (0, pw, 0, ph), mode="replicate")
        if (after - before).abs().mean() < 1e-3:
            return torch.zeros(1, 1, Hd, Wd), torch.zeros(1)
        f0, f1 = self.enc(before), self.enc(after)
        logit = self.dec((f1 - f0).abs())
        logit = F.interpolate(logit, scale_factor=4.0, mode="bilinear", align_corners=False)
        change = torch.sigmoid(logit)[:, :, :Hd, :Wd]
        return change, change.mean().reshape(1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return ChangeDetector().eval()


def _pair(Hd, Wd, seed, changed=True, haze=0.0):
    g = torch.Generator().manual_seed(seed)
    a = 0.4 * torch.rand(1, 4, Hd, Wd, generator=g)
    b = a.clone()
    if changed:
        b[:, :, Hd // 4: Hd // 2, Wd // 3: Wd // 2] += 0.5
    b = b + haze
    return a, b


def example_inputs() -> tuple:
    return _pair(32, 32, 0)


def dynamic_shapes():
    h = torch.export.Dim("h", min=16, max=128)
    w = torch.export.Dim("w", min=16, max=128)
    return ({2: h, 3: w}, {2: h, 3: w})


def verify_inputs() -> list:
    return [
        _pair(40, 48, 1, haze=0.5),      # H padded, hazy second date
        _pair(64, 64, 2, changed=False),  # identical: early return
        _pair(32, 50, 3),                 # W padded only
        _pair(16, 128, 4, changed=False, haze=0.45),  # only haze changed
    ]
