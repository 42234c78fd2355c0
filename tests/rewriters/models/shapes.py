"""Branches on dynamic sizes: a cond on the symbolic size, never a silent specialisation."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=2, max=64)


class LengthAdaptive(nn.Module):
    def forward(self, x):
        if x.shape[1] > 16:
            # long inputs: centre each row
            y = x - x.mean(dim=1, keepdim=True)
        else:
            y = x * 2 + 1
        return y


class ShortOrLong(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        pooled = h.mean(dim=1) if x.shape[1] >= 8 else h.max(dim=1).values
        return pooled


CASES = [
    Case(
        "shape_branch_dynamic",
        seeded(LengthAdaptive),
        (torch.randn(2, 10),),
        [(torch.randn(2, 4),), (torch.randn(2, 20),), (torch.randn(2, 16),), (torch.randn(2, 17),)],
        ({1: SEQ},),
        constructs=("if->cond",),
    ),
    Case(
        "shape_ternary_dynamic",
        seeded(ShortOrLong),
        (torch.randn(2, 10, 4),),
        [(torch.randn(2, 3, 4),), (torch.randn(2, 8, 4),), (torch.randn(2, 30, 4),)],
        ({1: SEQ},),
        constructs=("ifexp->cond",),
    ),
]
