"""Newton iteration for the cube root with a convergence test and an iteration cap."""

import torch
from torch import nn


class CubeRoot(nn.Module):
    def __init__(self, tol=1e-5, max_iter=12):
        super().__init__()
        self.tol = tol
        self.max_iter = max_iter
        self.proj = nn.Linear(8, 8)

    def forward(self, a):
        a = self.proj(a).abs() + 0.1
        y = torch.ones_like(a)
        it = 0
        while True:
            y_next = y - (y * y * y - a) / (3 * y * y)
            delta = (y_next - y).abs().max()
            y = y_next
            it += 1
            if delta < self.tol:
                break
            if it >= self.max_iter:
                break
        return y


def model():
    torch.manual_seed(0)
    return CubeRoot()


def example_inputs():
    return (torch.randn(3, 8),)


def verify_inputs():
    # large inputs need ~20 iterations from y=1 -> hit the cap; small ones converge in a few
    return [(torch.randn(3, 8) * 1e6,), (torch.randn(3, 8) * 0.01,)]
