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
