"""Newton's method for an elementwise cube root, iterated until converged or out of iterations."""

import torch
from torch import nn


class NewtonCbrt(nn.Module):
    def __init__(self):
        super().__init__()
        self.tol = 1e-4

    def forward(self, a):
        a = a.abs() + 1.0
        y = a.clone()
        it = torch.zeros((), dtype=torch.int64)
        err = torch.ones(())
        while err > self.tol and it < 40:
            y_new = y - (y * y * y - a) / (3.0 * y * y)
            err = (y_new - y).abs().max()
            y = y_new
            it = it + 1
        return y, it


def model():
    return NewtonCbrt()


def example_inputs():
    return (torch.rand(5) * 10.0,)


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=64)},)


def verify_inputs():
    return [(torch.zeros(5),), (torch.full((5,), 1000.0),)]
