"""Generates a trajectory of k steps (k from .item()), collecting each step and stacking them."""

import torch
from torch import nn


class Trajectory(nn.Module):
    def __init__(self):
        super().__init__()
        self.dyn = nn.Linear(4, 4)

    def forward(self, state, k):
        states = []
        for i in range(int(k.item())):
            state = state + 0.1 * torch.tanh(self.dyn(state)) + 0.01 * i
            states.append(state)
        return torch.stack(states, dim=0)


def model():
    torch.manual_seed(0)
    return Trajectory()


def example_inputs():
    return (torch.randn(2, 4), torch.tensor(5))


def verify_inputs():
    return [(torch.randn(2, 4), torch.tensor(1)), (torch.randn(2, 4), torch.tensor(9))]
