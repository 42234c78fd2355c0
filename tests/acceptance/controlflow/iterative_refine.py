"""Deep-equilibrium style refinement: iterate z = tanh(a*Wz + Ux) until the update is below tol."""

import torch
from torch import nn


class FixedPoint(nn.Module):
    def __init__(self, dim: int = 32, max_iter: int = 8, tol: float = 1e-3, alpha: float = 0.9):
        super().__init__()
        self.inject = nn.Linear(16, dim)
        self.W = nn.Linear(dim, dim, bias=False)
        self.head = nn.Linear(dim, 8)
        self.max_iter = max_iter
        self.tol = tol
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        u = self.inject(x)
        z = torch.zeros_like(u)
        delta = x.new_tensor(float("inf"))
        it = 0
        while it < self.max_iter and delta > self.tol:
            z_next = torch.tanh(self.alpha * self.W(z) + u)
            delta = (z_next - z).abs().max()
            z = z_next
            it += 1
        return self.head(z)


def model() -> nn.Module:
    torch.manual_seed(0)
    return FixedPoint()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(4, 16),)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(4, 16) * s,) for s in (0.01, 0.3, 20.0)]
