"""Helpers with early returns (renorm, soft clip) called from the top forward and from submodules."""

import torch
from torch import nn

DIM = 24


def renorm(v: torch.Tensor, max_norm: float) -> torch.Tensor:
    n = v.norm(dim=-1).max()
    if n <= max_norm:
        return v
    return v * (max_norm / n)


def soft_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    if x.abs().max() > limit:
        x = limit * torch.tanh(x / limit)
    return x


class ResBlock(nn.Module):
    def __init__(self, max_norm: float, clip: float):
        super().__init__()
        self.clip = clip
        self.fc = nn.Linear(DIM, DIM)
        self.max_norm = max_norm

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = soft_clip(self.fc(x), self.clip)
        return renorm(x + h, self.max_norm)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block1 = ResBlock(8.0, 2.0)
        self.block2 = ResBlock(6.0, 1.5)
        self.head = nn.Linear(DIM, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = renorm(x, 10.0)
        x = self.block2(self.block1(x))
        return soft_clip(self.head(x), 1.0)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Net()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(3, DIM),)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(3, DIM) * s,) for s in (0.05, 1.0, 3.0, 100.0)]
