"""An RNN over a dynamic sequence whose update rule depends on each step's input (if inside a loop)."""

import torch
from torch import nn


class GatedStepRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(4, 12)
        self.rec = nn.Linear(12, 12)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 12)
        outs = []
        for t in range(x.shape[1]):
            xt = x[:, t]
            if xt.sum() > 0:
                h = torch.tanh(self.inp(xt) + self.rec(h))
            else:
                h = 0.9 * h
            outs.append(h)
        return torch.stack(outs, dim=1)


def model():
    torch.manual_seed(0)
    return GatedStepRNN()


def example_inputs():
    return (torch.randn(2, 5, 4),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=32)},)


def verify_inputs():
    x = torch.randn(2, 6, 4).abs()
    x[:, 1::2] *= -1.0
    return [(x,), (torch.randn(2, 3, 4).abs(),), (-torch.randn(2, 3, 4).abs(),)]
