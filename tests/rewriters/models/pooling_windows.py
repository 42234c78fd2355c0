"""A pooling window computed from sizes a size branch changed (rewriters/pools.py): a scan turned
upright when it lies on its side, then pooled down by ``ceil(longest side / MAX_SIDE)`` when too
large, before a small network and a tensor `if` on its confidence."""

import math

import torch
import torch.nn.functional as F
from torch import nn

from tests.rewriters.models.case import Case, seeded

MAX_SIDE = 24


def _fit(img):
    h, w = img.shape[-2], img.shape[-1]
    if h > MAX_SIDE or w > MAX_SIDE:
        factor = math.ceil(max(h, w) / MAX_SIDE)
        img = F.avg_pool2d(img, factor, ceil_mode=True)
    return img


class UprightAndPooled(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.head = nn.Linear(8, 4)

    def forward(self, image):
        if image.shape[-1] > image.shape[-2]:
            image = image.transpose(-1, -2).flip(-1)
        image = _fit(image)
        scores = torch.softmax(self.head(torch.relu(self.conv(image)).mean(dim=(-2, -1))), dim=-1)
        if scores.max() > 0.4:
            return scores, torch.ones(())
        return torch.zeros_like(scores), torch.zeros(())


def _scan(h, w, seed, level=0.0):
    return (level + torch.rand(1, 3, h, w, generator=torch.Generator().manual_seed(seed)),)


CASES = [
    Case(
        "a_pooling_window_computed_from_sizes_a_size_branch_changed",
        seeded(UprightAndPooled),
        _scan(20, 16, 0),
        [
            _scan(16, 30, 1),  # on its side: turned, then pooled by 2
            _scan(70, 50, 2),  # upright and large: pooled by 3
            _scan(40, 130, 3, 4.0),  # on its side and large: pooled by 6
            _scan(18, 12, 4, -3.0),
        ],
        ({2: torch.export.Dim("h", min=8, max=160), 3: torch.export.Dim("w", min=8, max=160)},),
        constructs=("if->cond",),
    ),
]
