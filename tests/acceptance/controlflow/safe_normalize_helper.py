"""Embedding normaliser whose control flow lives in a module-level helper with an early return."""

import torch
from torch import nn


def safe_normalize(v, eps=1e-6):
    n = v.norm()
    if n < eps:
        return v
    out = v / n
    if out.max() > 0.5:
        out = out.clamp(max=0.5)
    return out


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 6)

    def forward(self, x):
        a = safe_normalize(self.fc(x))
        b = safe_normalize(x)
        return a + b


def model():
    torch.manual_seed(0)
    return Embedder()


def example_inputs():
    return (torch.randn(2, 6),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16)},)


def verify_inputs():
    return [
        (torch.zeros(3, 6),),
        (torch.randn(12, 6),),
        (torch.tensor([[5.0, 0, 0, 0, 0, 0], [0.0, 0, 0, 0, 0, 0]]),),
    ]
