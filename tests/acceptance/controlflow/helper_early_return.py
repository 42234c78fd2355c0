"""Helper functions and a submodule with early returns on tensor values."""

import torch
from torch import nn


def safe_standardize(x, eps=1e-3):
    mu = x.mean()
    sd = x.std()
    if sd < eps:
        return x - mu
    return (x - mu) / sd


def clip_norm(v, max_norm):
    n = v.norm()
    out = v
    if n > max_norm:
        out = v * (max_norm / n)
    return out


class GatedResidual(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        h = self.fc(x)
        if h.abs().mean() < 0.05:
            return x
        return x + torch.relu(h)


class Net(nn.Module):
    def __init__(self, dim=10):
        super().__init__()
        self.block = GatedResidual(dim)
        self.head = nn.Linear(dim, 4)

    def forward(self, x):
        x = safe_standardize(x)
        x = self.block(x)
        return clip_norm(self.head(x), 1.5)


def model():
    torch.manual_seed(0)
    m = Net()
    with torch.no_grad():
        m.block.fc.bias.zero_()
    return m


def example_inputs():
    return (torch.randn(3, 10),)


def verify_inputs():
    # constant input: std 0 -> early return; then zero -> block early return
    return [(torch.full((3, 10), 2.0),), (torch.randn(3, 10) * 0.01,)]
