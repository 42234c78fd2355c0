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


class AdaptiveDepth(nn.Module):
    """`break` on a tensor inside a loop over an nn.ModuleList, and a config-driven `break` and
    a tensor `continue` in another one."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.extra = nn.ModuleList([nn.Linear(4, 4) for _ in range(4)])
        self.depth = 2

    def forward(self, x):
        for block in self.blocks:
            x = x + block(x)
            if x.mean() > 0:
                break
        for i, layer in enumerate(self.extra):
            if i >= self.depth:
                break
            y = layer(x)
            if y.sum() < 0:
                continue
            x = x + y
        return x


CASES = [
    Case(
        "torch_tensor_constant_in_branch",
        seeded(ConstantPerBranch),
        (torch.randn(2, 4),),
        [(torch.full((2, 4), 1.0),), (torch.full((2, 4), -1.0),)],
        constructs=("if->cond",),
    ),
    Case(
        "modulelist_break_tensor",
        seeded(AdaptiveDepth),
        (torch.randn(2, 4),),
        [(torch.full((2, 4), 5.0),), (torch.full((2, 4), -5.0),), (torch.randn(2, 4) * 0.1,)],
        constructs=("if->cond",),
    ),
]
