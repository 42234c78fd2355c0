"""Residual gate using bool(t) and .all(), with a ternary on a tensor reduction."""

import torch
from torch import nn


class GatedResidual(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.f = nn.Linear(d, d)
        self.g = nn.Linear(d, d)

    def forward(self, x):
        h = self.f(x)
        if bool((h > -5).all()):
            h = torch.relu(h)
        else:
            h = h.clamp(-5, 5)
        scale = h.sum() if x.mean() > 0 else -h.sum()
        return self.g(h) + scale * 0.01


def model():
    torch.manual_seed(0)
    return GatedResidual()


def example_inputs():
    return (torch.randn(4, 12),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=64)},)


def verify_inputs():
    return [(torch.randn(3, 12) * 50,), (torch.ones(2, 12) * -2,), (torch.ones(2, 12) * 0.1,)]
