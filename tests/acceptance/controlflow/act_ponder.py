"""Adaptive Computation Time RNN: for each step of a dynamic sequence, ponder until the halting mass reaches 1."""

import torch
from torch import nn

FEAT, HIDDEN = 8, 16


class ACTRNN(nn.Module):
    def __init__(self, max_ponder: int = 3, eps: float = 0.01):
        super().__init__()
        self.cell = nn.GRUCell(FEAT, HIDDEN)
        self.halt = nn.Linear(HIDDEN, 1)
        self.max_ponder = max_ponder
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x.new_zeros(x.shape[0], HIDDEN)
        outs = []
        for t in range(x.shape[1]):
            halting = x.new_zeros(())
            acc = torch.zeros_like(h)
            n = 0
            while n < self.max_ponder and halting < 1 - self.eps:
                h = self.cell(x[:, t], h)
                p = torch.sigmoid(self.halt(h)).mean()
                acc = acc + p * h
                halting = halting + p
                n += 1
            h = acc / halting
            outs.append(h)
        return torch.stack(outs, dim=1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return ACTRNN()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 5, FEAT),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=24)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 9, FEAT) * s,) for s in (0.1, 4.0)]
