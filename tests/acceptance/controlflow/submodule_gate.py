"""MoE-lite: two experts selected per call inside a submodule forward; the submodule is used twice."""

import torch
from torch import nn


class Switch(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.router = nn.Linear(d, 1)
        self.a = nn.Linear(d, d)
        self.b = nn.Linear(d, d)

    def forward(self, x):
        r = self.router(x).mean()
        if r >= 0:
            y = self.a(x)
        else:
            y = self.b(x).sigmoid()
        return y + x


class Net(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.s1 = Switch(d)
        self.s2 = Switch(d)

    def forward(self, x):
        return self.s2(torch.relu(self.s1(x)))


def model():
    torch.manual_seed(1)
    return Net()


def example_inputs():
    return (torch.randn(3, 8),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16)},)


def verify_inputs():
    return [
        (torch.randn(3, 8) * 10,),
        (-torch.randn(3, 8) * 10,),
        (torch.ones(2, 8) * 3,),
        (torch.ones(2, 8) * -3,),
    ]
