"""Branches that reassign variables from before the if (one branch only, both branches, several variables)."""

import torch
from torch import nn


class BranchVars(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, y):
        h = self.fc(x)
        gain = h.abs().mean()
        bias = torch.zeros(4)
        if (h.sum(dim=-1) > 0).any():
            bias = bias + 1.0
            gain = gain * 3
        if y.max() < 0:
            out = h - y
            extra = y.abs()
        else:
            out = h + y
            extra = y * 0.5
        return out * gain + bias + extra


def model():
    torch.manual_seed(0)
    return BranchVars()


def example_inputs():
    return (torch.randn(3, 4), torch.randn(3, 4))


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=16)
    return ({0: b}, {0: b})


def verify_inputs():
    return [
        (torch.ones(2, 4) * -20, -torch.rand(2, 4) - 0.1),
        (torch.ones(2, 4) * 20, torch.rand(2, 4)),
        (torch.ones(2, 4) * -20, torch.rand(2, 4)),
        (torch.ones(2, 4) * 20, -torch.rand(2, 4) - 0.1),
    ]
