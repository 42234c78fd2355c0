"""Reads a zero-padded sequence step by step until the first all-zero (padding) frame or the end."""

import torch
from torch import nn

FEAT, HIDDEN = 6, 20


class PrefixReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(FEAT, HIDDEN)
        self.head = nn.Linear(HIDDEN, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        steps = x.shape[1]
        h = x.new_zeros(x.shape[0], HIDDEN)
        i = 0
        while i < steps and not (x[:, i] == 0).all():
            h = self.cell(x[:, i], h)
            i += 1
        return self.head(h)


def model() -> nn.Module:
    torch.manual_seed(0)
    return PrefixReader()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    x = torch.randn(2, 10, FEAT)
    x[:, 6:] = 0.0
    return (x,)


def dynamic_shapes():
    return ({1: torch.export.Dim("steps", min=2, max=32)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    full = torch.randn(2, 14, FEAT)
    empty = torch.randn(2, 4, FEAT)
    empty[:, 0] = 0.0
    return [(full,), (empty,)]
