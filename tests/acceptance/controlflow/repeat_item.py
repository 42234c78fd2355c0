"""Applies a smoothing step a number of times given by an integer tensor input (int(t.item()))."""

import torch
from torch import nn


class RepeatSmooth(nn.Module):
    def __init__(self):
        super().__init__()
        self.mix = nn.Linear(8, 8)

    def forward(self, x, steps):
        n = int(steps.item())
        for _ in range(n):
            x = 0.5 * x + 0.5 * torch.tanh(self.mix(x))
        return x


def model():
    torch.manual_seed(0)
    return RepeatSmooth()


def example_inputs():
    return (torch.randn(2, 8), torch.tensor(3))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)}, None)


def verify_inputs():
    return [
        (torch.randn(2, 8), torch.tensor(0)),
        (torch.randn(2, 8), torch.tensor(1)),
        (torch.randn(4, 8), torch.tensor(7)),
    ]
