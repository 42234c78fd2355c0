"""A tensor `if` and a tensor `while` inside submodule forwards, used from a parent network."""

import torch
from torch import nn


class GatedUnit(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 0:
            h = torch.relu(h)
        else:
            h = -torch.relu(-h)
        return h


class Renorm(nn.Module):
    def forward(self, x):
        while x.abs().max() > 4.0:
            x = x / 2.0
        return x


class Parent(nn.Module):
    def __init__(self):
        super().__init__()
        self.u1 = GatedUnit(10)
        self.u2 = GatedUnit(10)
        self.renorm = Renorm()

    def forward(self, x):
        return self.renorm(self.u2(self.u1(x)) * 3.0)


def model():
    torch.manual_seed(1)
    return Parent()


def example_inputs():
    return (torch.randn(2, 10),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs():
    return [(torch.randn(2, 10) * s,) for s in (0.01, 1.0, 30.0, -30.0)]
