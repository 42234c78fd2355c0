"""Deep-equilibrium style block: iterate h = tanh(W h + U x) until the update is small."""

import torch
from torch import nn


class FixedPoint(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.w = nn.Linear(d, d, bias=False)
        self.u = nn.Linear(d, d)
        self.tol = 1e-3

    def forward(self, x):
        h = torch.zeros_like(x)
        delta = torch.ones(())
        steps = torch.zeros((), dtype=torch.int64)
        while delta > self.tol and steps < 7:
            h_new = torch.tanh(self.w(h) * self.scale_hint(x) + self.u(x))
            delta = (h_new - h).abs().max()
            h = h_new
            steps = steps + 1
        return h, steps

    def scale_hint(self, x):
        return 0.8


def model():
    torch.manual_seed(0)
    m = FixedPoint()
    return m


def example_inputs():
    return (torch.randn(3, 16),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=32)},)


def verify_inputs():
    g = torch.Generator().manual_seed(0)
    # converges before the cap (large inputs saturate tanh) and stops at the cap
    return [
        (torch.randn(2, 16, generator=g) * 100,),
        (torch.zeros(2, 16),),
        (torch.randn(5, 16, generator=g) * 10,),
    ]
