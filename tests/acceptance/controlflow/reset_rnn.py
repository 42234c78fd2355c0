"""Elman RNN over a dynamic-length sequence; the state resets on a large input frame (if inside for)."""

import torch
from torch import nn


class ResetRNN(nn.Module):
    def __init__(self, d_in=4, d_h=8):
        super().__init__()
        self.inp = nn.Linear(d_in, d_h)
        self.rec = nn.Linear(d_h, d_h)
        self.d_h = d_h

    def forward(self, x):
        h = torch.zeros(x.shape[0], self.d_h)
        states = []
        for t in range(x.shape[1]):
            xt = x[:, t, :]
            if xt.abs().max() > 3.0:
                h = torch.zeros_like(h)
            else:
                h = torch.tanh(self.inp(xt) + self.rec(h))
            states.append(h)
        return torch.stack(states, dim=1), h


def model():
    torch.manual_seed(0)
    return ResetRNN()


def example_inputs():
    x = torch.randn(2, 7, 4) * 0.5
    x[:, 3] = 5.0
    return (x,)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=64)},)


def verify_inputs():
    return [(torch.randn(2, 25, 4) * 0.5,), (torch.randn(2, 2, 4) * 10,)]
