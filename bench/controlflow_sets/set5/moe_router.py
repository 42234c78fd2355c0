"""Two-expert router with and/or/not on tensor predicates."""

import torch
from torch import nn


class Router(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.gate = nn.Linear(d, 2)
        self.e0 = nn.Linear(d, d)
        self.e1 = nn.Linear(d, d)
        self.max_norm = 10.0

    def forward(self, x):
        p = self.gate(x).softmax(-1).mean(0)
        big = x.abs().max() > self.max_norm
        if p[0] > p[1] and not big:
            y = self.e0(x)
        elif p[1] >= p[0] or x.mean() < -1.0:
            y = self.e1(x)
        else:
            y = 0.5 * (self.e0(x) + self.e1(x))
        return y


def model():
    torch.manual_seed(0)
    return Router()


def example_inputs():
    torch.manual_seed(16)
    return (torch.randn(4, 12),)


def dynamic_shapes():
    return ({0: torch.export.Dim("b", min=2, max=64)},)


def verify_inputs():
    m = model()
    w = (m.gate.weight[0] - m.gate.weight[1]).detach()
    d = w / w.norm()
    return [
        (d.repeat(3, 1) * 5,),
        (-d.repeat(5, 1) * 5,),
        (d.repeat(4, 1) * 30,),
    ]
