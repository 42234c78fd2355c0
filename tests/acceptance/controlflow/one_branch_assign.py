"""Outlier handling: a value set before the if is overwritten in one branch only."""

import torch
from torch import nn


class OutlierScale(nn.Module):
    def __init__(self, residual=True):
        super().__init__()
        self.fc = nn.Linear(7, 7)
        self.residual = residual

    def forward(self, x):
        y = self.fc(x)
        scale = torch.ones(())
        if y.abs().max() > 3.0:
            scale = 3.0 / y.abs().max()
            y = y.clamp(-3.0, 3.0)
        if self.residual:
            y = y + x
        return y * scale


def model():
    torch.manual_seed(0)
    return OutlierScale()


def example_inputs():
    return (torch.randn(3, 7) * 0.1,)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs():
    return [(torch.randn(3, 7) * 0.1,), (torch.randn(3, 7) * 100.0,)]
