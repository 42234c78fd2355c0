"""Adaptive Computation Time (Graves 2016) cell: ponder steps repeat while any sample's halting
probability is below 1 - eps and a step budget is left. `while` on a tensor predicate combined
with a tensor counter, several loop-carried tensors."""

import torch
from torch import nn

DIM = 24


class ACTCell(nn.Module):
    def __init__(self, eps: float = 0.01, max_steps: int = 8):
        super().__init__()
        self.cell = nn.GRUCell(DIM, DIM)
        self.halt = nn.Linear(DIM, 1)
        self.eps = eps
        self.max_steps = max_steps

    def forward(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        state = torch.zeros_like(x)
        cum = torch.zeros(x.shape[0])
        acc = torch.zeros_like(x)
        n = torch.zeros((), dtype=torch.long)
        while ((cum < 1.0 - self.eps).any()) & (n < self.max_steps):
            state = self.cell(x, state)
            p = torch.sigmoid(self.halt(state).squeeze(-1) + bias)
            running = cum < 1.0 - self.eps
            p = torch.where(cum + p > 1.0 - self.eps, 1.0 - cum, p)
            p = torch.where(running, p, torch.zeros_like(p))
            acc = acc + p[:, None] * state
            cum = cum + p
            n = n + 1
        return torch.cat([acc, n.float().expand(x.shape[0], 1)], dim=1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return ACTCell().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(3, DIM), torch.tensor(0.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=64)}, None)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(9)
    return [
        (torch.randn(2, DIM, generator=g), torch.tensor(10.0)),  # halts after one step
        (torch.randn(3, DIM, generator=g), torch.tensor(-1.0)),  # a few steps
        (torch.randn(5, DIM, generator=g), torch.tensor(-10.0)),  # runs to max_steps
    ]
