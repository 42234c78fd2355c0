"""A GRU cell run over a dynamic sequence that stops early once the state saturates."""

import torch
from torch import nn


class EarlyStopRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(8, 16)
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 16)
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
            if h.abs().max() > 0.9:
                break
        return self.head(h)


def model():
    torch.manual_seed(0)
    return EarlyStopRNN()


def example_inputs():
    return (torch.randn(2, 6, 8),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=32)},)


def verify_inputs():
    return [(torch.randn(2, 10, 8) * 0.01,), (torch.randn(2, 10, 8) * 20.0,)]
