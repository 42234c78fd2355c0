"""GRU over a dynamic-length sequence, skipping all-zero (padding) frames with continue."""

import torch
from torch import nn


class SkipPadGRU(nn.Module):
    def __init__(self, d_in=5, d_h=7):
        super().__init__()
        self.cell = nn.GRUCell(d_in, d_h)
        self.d_h = d_h

    def forward(self, x):
        h = x.new_zeros(x.shape[0], self.d_h)
        n_used = torch.zeros(())
        for t in range(x.shape[1]):
            frame = x[:, t]
            if (frame == 0).all():
                continue
            h = self.cell(frame, h)
            n_used = n_used + 1
        return h, n_used


def model():
    torch.manual_seed(0)
    return SkipPadGRU()


def example_inputs():
    x = torch.randn(2, 6, 5)
    x[:, 4:] = 0
    return (x,)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=64)},)


def verify_inputs():
    y = torch.randn(2, 11, 5)
    y[:, ::3] = 0
    return [(torch.randn(2, 20, 5),), (torch.zeros(2, 3, 5),), (y,)]
