"""Elementwise Newton iteration for sqrt, the kind of iterative solver found inside custom layers:
`while` whose condition is a tensor predicate combined with a Python counter via `and`."""

import torch
from torch import nn


class NewtonSqrt(nn.Module):
    def __init__(self, tol: float = 1e-4, max_iter: int = 20):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.tol = tol
        self.max_iter = max_iter

    def forward(self, x: torch.Tensor, guess: torch.Tensor) -> torch.Tensor:
        a = x.abs() + 1e-3
        y = guess.abs() + 1e-3
        it = 0
        while (torch.abs(y * y - a) > self.tol).any() and it < self.max_iter:
            y = 0.5 * (y + a / y)
            it += 1
        return self.proj(y) + it


def model() -> nn.Module:
    torch.manual_seed(0)
    return NewtonSqrt().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.rand(4, 8) * 10, torch.ones(4, 8))


def dynamic_shapes():
    b = torch.export.Dim("batch", min=1, max=32)
    return ({0: b}, {0: b})


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(3)
    a = torch.rand(2, 8, generator=g) * 10
    exact = (a.abs() + 1e-3).sqrt() - 1e-3
    return [
        (a, exact),  # already converged: zero iterations
        (torch.rand(3, 8, generator=g) * 10, torch.ones(3, 8)),  # a few iterations
        (torch.full((1, 8), 1e6), torch.full((1, 8), 1e-6)),  # hits max_iter (20)
    ]
