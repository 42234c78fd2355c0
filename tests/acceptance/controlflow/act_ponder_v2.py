"""Adaptive Computation Time (Graves 2016) pondering cell."""

import torch
from torch import nn


class ACTCell(nn.Module):
    def __init__(self, dim=16, max_steps=8, eps=0.01):
        super().__init__()
        self.cell = nn.Linear(dim, dim)
        self.halt = nn.Linear(dim, 1)
        self.max_steps = max_steps
        self.eps = eps

    def forward(self, state):
        halting = torch.zeros(state.shape[0])
        remainders = torch.zeros(state.shape[0])
        acc = torch.zeros_like(state)
        n = 0
        while (halting < 1.0 - self.eps).any() and n < self.max_steps:
            state = torch.tanh(self.cell(state))
            p = torch.sigmoid(self.halt(state)).squeeze(-1)
            running = (halting < 1.0 - self.eps).float()
            new_halt = ((halting + p * running) > 1.0 - self.eps).float() * running
            still = ((halting + p * running) <= 1.0 - self.eps).float() * running
            halting = halting + p * still
            remainders = remainders + new_halt * (1 - halting)
            halting = halting + new_halt * remainders
            w = p * still + new_halt * remainders
            acc = acc + w.unsqueeze(-1) * state
            n += 1
        return acc, halting


def model():
    torch.manual_seed(0)
    m = ACTCell()
    with torch.no_grad():
        m.cell.weight.copy_(torch.eye(16) + 0.05 * torch.randn(16, 16))
        m.cell.bias.zero_()
        m.halt.weight.fill_(0.5)
        m.halt.bias.zero_()
    return m


def example_inputs():
    return (torch.randn(4, 16),)


def verify_inputs():
    # positive state halts after a step or two; negative state runs to max_steps
    return [(torch.full((4, 16), 3.0),), (torch.full((4, 16), -3.0),)]
