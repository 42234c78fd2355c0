"""Control flow inside a module-level helper function called from forward."""

import torch
from torch import nn


def soft_threshold(h, limit):
    if h.abs().mean() > limit:
        return torch.sign(h) * (h.abs() - limit).clamp(min=0.0)
    return h


def normalise(h):
    n = h.norm(dim=-1, keepdim=True)
    return h / n if n.min() > 1.0 else h


class HelperNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(9, 9)

    def forward(self, x):
        h = soft_threshold(self.fc(x), 0.5)
        return normalise(h)


def model():
    torch.manual_seed(0)
    return HelperNet()


def example_inputs():
    return (torch.randn(3, 9),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs():
    return [(torch.randn(3, 9) * 20.0,), (torch.zeros(3, 9),), (torch.randn(3, 9) * 0.05,)]
