"""Stack of gated residual blocks: each block's own forward skips its FFN when the gate is closed."""

import torch
from torch import nn

DIM = 32


class GatedResidual(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(DIM, 1)
        self.norm = nn.LayerNorm(DIM)
        self.ff = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, DIM))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        g = torch.sigmoid(self.gate(x)).mean()
        y = x
        if g > 0.5:
            y = y + g * self.ff(self.norm(x))
        return y


class GatedStack(nn.Module):
    def __init__(self, depth: int = 3):
        super().__init__()
        self.blocks = nn.ModuleList([GatedResidual() for _ in range(depth)])
        self.head = nn.Linear(DIM, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=1))


def model() -> nn.Module:
    torch.manual_seed(0)
    return GatedStack()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 7, DIM),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=32)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 5, DIM) * s,) for s in (0.5, 3.0, -3.0, -1.0, -2.0)]
