"""A whole number picked by a test on sizes and used as a kernel size by the rest of the function
(passes/size_choices.py): a median filter's size by the image's smaller side, before a tensor early
return; a smoothing width set beside a baseline in an `if`/`else` on the length. (A pooling window
picked by a length: tests/rewriters/test_size_sides.py.)"""

import torch
import torch.nn.functional as F
from torch import nn

from tests.rewriters.models.case import Case, seeded


def _median(img, k):
    pad = k // 2
    padded = F.pad(img[None, None], (pad, pad, pad, pad), mode="replicate")
    return F.unfold(padded, k).median(dim=1).values.reshape(img.shape)


class MedianBySide(nn.Module):
    """`k = 3 if min(h, w) < 16 else 5` (sizes unpacked first), a median filter of that size and an
    early return when nothing stands out."""

    def forward(self, img):
        h, w = img.shape
        k = 3 if min(h, w) < 16 else 5
        med = _median(img, k)
        hits = (img - med) > 2.0
        if not hits.any():
            return img
        return torch.where(hits, med, img)


def _spiky(h, w, spikes):
    img = torch.rand(h, w, generator=torch.Generator().manual_seed(h * w))
    for r, c in spikes:
        img[r, c] = 9.0
    return (img,)


def _smoothed(x, width):
    kernel = torch.ones(1, 1, width) / width
    return F.conv1d(x.view(1, 1, -1), kernel, padding=width // 2).view(-1)[: x.shape[0]]


class BaselineAndWidth(nn.Module):
    """`if n > 64:` a rolling baseline and `width = 7`, else the minimum and `width = 3`; then a
    smoothing of that width, local maxima against its neighbours and a tensor early return."""

    def forward(self, x):
        n = x.shape[0]
        if n > 64:
            baseline = _smoothed(x, 15).clamp(max=x.median())
            width = 7
        else:
            baseline = x.min()
            width = 3
        smooth = _smoothed(x - baseline, width)
        mid = smooth[1:-1]
        peaks = F.pad((mid > smooth[:-2]) & (mid >= smooth[2:]) & (mid > 0.5), (1, 1))
        if not peaks.any():
            return peaks.long(), torch.zeros(())
        return peaks.long(), torch.where(peaks, smooth, torch.zeros_like(smooth)).max()


def _bumps(n, centres):
    t = torch.linspace(0.0, 1.0, n)
    x = 0.05 * torch.sin(37.0 * t)
    for c in centres:
        x = x + 1.0 / (1.0 + ((t - c) / 0.02) ** 2)
    return (x,)


CASES = [
    Case(
        "median_size_picked_by_the_smaller_side",
        seeded(MedianBySide),
        _spiky(20, 24, [(5, 6)]),
        [_spiky(8, 30, []), _spiky(8, 30, [(3, 3)]), _spiky(24, 16, [(10, 2), (4, 9)]), _spiky(24, 20, [])],
        ({0: torch.export.Dim("h", min=6, max=32), 1: torch.export.Dim("w", min=6, max=32)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_width_set_beside_other_statements_in_a_branch_on_the_length",
        seeded(BaselineAndWidth),
        _bumps(100, [0.3, 0.7]),
        [
            _bumps(16, [0.5]),  # min length: the short side, nothing stands out (the early return)
            _bumps(50, [0.3, 0.6]),  # the short side, two peaks
            _bumps(256, [0.2, 0.45, 0.8]),  # max length
            _bumps(80, []),
        ],
        ({0: torch.export.Dim("n", min=16, max=256)},),
        constructs=("if->cond",),
    ),
]
