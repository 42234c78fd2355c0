"""Elman RNN iterating with enumerate(x.unbind(1)) and a length mask."""

import torch
from torch import nn


class MaskedRNN(nn.Module):
    def __init__(self, inp=6, hidden=12):
        super().__init__()
        self.ih = nn.Linear(inp, hidden)
        self.hh = nn.Linear(hidden, hidden, bias=False)
        self.hidden = hidden

    def forward(self, x, lengths):
        h = torch.zeros(x.shape[0], self.hidden)
        for t, x_t in enumerate(x.unbind(1)):
            new_h = torch.tanh(self.ih(x_t) + self.hh(h))
            keep = (t < lengths).float().unsqueeze(-1)
            h = keep * new_h + (1 - keep) * h
        return h


def model():
    torch.manual_seed(0)
    return MaskedRNN()


def example_inputs():
    return (torch.randn(3, 7, 6), torch.tensor([7, 3, 1]))


def dynamic_shapes():
    return ({1: torch.export.Dim("T", min=2, max=40)}, None)


def verify_inputs():
    return [
        (torch.randn(3, 2, 6), torch.tensor([2, 1, 2])),
        (torch.randn(3, 30, 6), torch.tensor([30, 11, 4])),
    ]
