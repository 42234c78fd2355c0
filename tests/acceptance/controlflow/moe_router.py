"""Sequence-level mixture of experts: the router's top expert (read with .item()) picks one FFN."""

import torch
from torch import nn

DIM = 32


class Expert(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class MoE(nn.Module):
    def __init__(self, min_conf: float = 0.45):
        super().__init__()
        self.router = nn.Linear(DIM, 3)
        self.experts = nn.ModuleList([Expert(DIM) for _ in range(3)])
        self.fallback = nn.Linear(DIM, DIM)
        self.norm = nn.LayerNorm(DIM)
        self.min_conf = min_conf

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        gate = torch.softmax(self.router(x.mean(dim=(0, 1))), dim=-1)
        top = int(gate.argmax().item())
        if gate.max().item() < self.min_conf:
            return self.norm(x + self.fallback(x))
        if top == 0:
            y = self.experts[0](x)
        elif top == 1:
            y = self.experts[1](x)
        else:
            y = self.experts[2](x) * gate[2]
        return self.norm(x + y)


def model() -> nn.Module:
    torch.manual_seed(0)
    return MoE()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 10, DIM),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=48)},)


def verify_inputs() -> list:
    cases = []
    for seed in (0, 1, 2, 6):
        g = torch.Generator().manual_seed(seed)
        cases.append((torch.randn(2, 6, DIM, generator=g) + 2 * torch.randn(DIM, generator=g),))
    return cases
