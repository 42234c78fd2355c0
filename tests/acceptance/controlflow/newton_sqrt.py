"""Newton iterations for sqrt of a learned positive quantity, with bool() in the while test and an iteration cap."""

import torch
from torch import nn


class NewtonSqrt(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        a = torch.nn.functional.softplus(self.fc(x)) + x.abs().sum()
        r = a.clone()
        it = 0
        while bool(((r * r - a).abs() > 1e-4 * a).any()) and it < 50:
            r = 0.5 * (r + a / r)
            it += 1
        return r


def model():
    torch.manual_seed(0)
    return NewtonSqrt()


def example_inputs():
    return (torch.randn(4, 3),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=32)},)


def verify_inputs():
    return [(torch.randn(2, 3) * 1000,), (torch.full((2, 3), 0.0),), (torch.randn(8, 3) * 0.01,)]
