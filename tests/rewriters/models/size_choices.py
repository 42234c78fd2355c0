"""A whole number picked by a test on sizes and used as a kernel size by the rest of the function
(passes/size_choices.py): a median filter's size by the image's smaller side, before a tensor early
return. (A pooling window picked by a length: tests/rewriters/test_size_sides.py.)"""

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


CASES = [
    Case(
        "median_size_picked_by_the_smaller_side",
        seeded(MedianBySide),
        _spiky(20, 24, [(5, 6)]),
        [_spiky(8, 30, []), _spiky(8, 30, [(3, 3)]), _spiky(24, 16, [(10, 2), (4, 9)]), _spiky(24, 20, [])],
        ({0: torch.export.Dim("h", min=6, max=32), 1: torch.export.Dim("w", min=6, max=32)},),
        constructs=("if->cond",),
    ),
]
