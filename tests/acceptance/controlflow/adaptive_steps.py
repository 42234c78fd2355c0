"""Refinement with a caller-chosen number of steps (a tensor read via .item()); every state is returned."""

import torch
from torch import nn

DIM = 32


class Refiner(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(12, DIM)
        self.step = nn.Sequential(nn.LayerNorm(DIM), nn.Linear(DIM, DIM), nn.Tanh())

    def forward(self, x: torch.Tensor, n_steps: torch.Tensor) -> torch.Tensor:
        h = self.inp(x)
        states = [h]
        for _ in range(int(n_steps.item())):
            h = h + 0.5 * self.step(h)
            states.append(h)
        return torch.stack(states, dim=1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Refiner()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 12), torch.tensor(3))


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 12), torch.tensor(0)), (torch.randn(2, 12), torch.tensor(7))]
