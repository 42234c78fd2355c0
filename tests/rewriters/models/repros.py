"""Constructs an independent acceptance set found failing (reduced to the smallest model)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class ConstantPerBranch(nn.Module):
    """torch.tensor(k) created inside the branches of a tensor `if`."""

    def forward(self, x):
        if x.mean() > 0:
            level = torch.tensor(1)
            scale = torch.tensor(2.5)
        else:
            level = torch.tensor(0)
            scale = torch.tensor(-1.0, dtype=torch.float32)
        return x * scale, level


CASES = [
    Case(
        "torch_tensor_constant_in_branch",
        seeded(ConstantPerBranch),
        (torch.randn(2, 4),),
        [(torch.full((2, 4), 1.0),), (torch.full((2, 4), -1.0),)],
        constructs=("if->cond",),
    ),
]
