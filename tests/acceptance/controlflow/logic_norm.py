"""Normalisation chosen by and/or/not over tensor statistics."""

import torch
from torch import nn


class LogicNorm(nn.Module):
    def __init__(self, d=10):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x):
        h = self.lin(x)
        m, s = h.mean(), h.std()
        if (m > 0 and s < 2.0) or not (h.abs().max() < 50):
            h = (h - m) / (s + 1e-5)
        else:
            h = h * 0.5
        if not h.isfinite().all():
            h = torch.zeros_like(h)
        return h


def model():
    torch.manual_seed(0)
    return LogicNorm()


def example_inputs():
    return (torch.randn(3, 10),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=64)},)


def verify_inputs():
    # (m>0 and s<2) true; big-max path; neither; inf -> not finite
    return [
        (torch.ones(2, 10) * 0.05,),
        (torch.randn(4, 10) * 100,),
        (torch.ones(2, 10) * -0.05,),
        (torch.full((2, 10), float("inf")),),
        # m > 0 but s >= 2 and max < 50: the `and` fails on its second operand
        (torch.tensor([-1.0, 1, -1, -1, -1, -1, 1, 1, -1, -1]).repeat(2, 1) * torch.tensor([[4.0], [2.0]]),),
    ]
