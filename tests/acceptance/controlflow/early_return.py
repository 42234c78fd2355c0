"""A residual block that returns early for near-zero inputs (code after the if is the else path)."""

import torch
from torch import nn


class EarlyExit(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 8)
        self.fc2 = nn.Linear(8, 8)

    def forward(self, x):
        energy = (x * x).mean()
        if energy < 0.01:
            return x * 0.0 + self.fc1.bias
        h = torch.relu(self.fc1(x))
        h = self.fc2(h)
        return h + x


def model():
    torch.manual_seed(0)
    return EarlyExit()


def example_inputs():
    return (torch.randn(2, 8),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs():
    return [(torch.randn(2, 8) * 0.001,), (torch.randn(5, 8),)]
