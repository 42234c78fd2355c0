"""An iterative norm clipper: halves the update while its norm exceeds the limit."""

import torch
from torch import nn


class Clipper(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.max_norm = 2.0

    def forward(self, x):
        u = self.fc(x)
        while torch.linalg.vector_norm(u) > self.max_norm:
            u = u * 0.5
        return x + u


def model():
    torch.manual_seed(0)
    return Clipper()


def example_inputs():
    return (torch.randn(4, 8),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=32)},)


def verify_inputs():
    return [(torch.zeros(1, 8),), (torch.randn(4, 8) * 100.0,)]
