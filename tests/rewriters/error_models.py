"""Models whose control flow cannot become graph ops: each must fail with NotDeployableError
naming this file and the line of the construct."""

import torch
from torch import nn


class OneBranchTensor(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            extra = x * 2
        return x + extra  # noqa: F821 - `extra` only exists on one path, the point of this model


class RaisesOnTensor(nn.Module):
    def forward(self, x):
        if torch.isnan(x).any():
            raise ValueError("NaN input")
        return x * 2


class AppendInWhile(nn.Module):
    """The loop reads the list it appends to (a state machine over a growing Python list)."""

    def forward(self, x):
        outs = [x]
        while x.sum() < 10:
            x = outs[0] + x + 1
            outs.append(x)
        return x


class DtypeChangeInLoop(nn.Module):
    def forward(self, x):
        count = 0
        while x.sum() < 10:
            x = x + 1
            count = count + 0.5
        return x, count


class DifferentStructures(nn.Module):
    def forward(self, x):
        if x.mean() > 0:
            return x, x.sum()
        return x


class MixedTables(nn.Module):
    """Per-core frequency tables of different lengths repeated by a dynamic core count."""

    def __init__(self):
        super().__init__()
        self.register_buffer("little", torch.tensor([0.3, 0.6, 1.0, 1.4, 1.8]))
        self.register_buffer("big", torch.tensor([0.5, 1.0, 1.6, 2.2, 2.8, 3.2]))

    def forward(self, util):
        cores = util.shape[0]
        tables = [self.little] * (cores // 2) + [self.big] * (cores - cores // 2)
        out = []
        for c in range(cores):
            out.append(tables[c][-1] * util[c])
        return torch.stack(out)
