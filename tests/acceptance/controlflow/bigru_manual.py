"""Hand-written bidirectional GRU over a dynamic sequence length."""

import torch
from torch import nn


class BiGRU(nn.Module):
    def __init__(self, inp=8, hidden=16):
        super().__init__()
        self.hidden = hidden
        self.fw = nn.GRUCell(inp, hidden)
        self.bw = nn.GRUCell(inp, hidden)

    def forward(self, x):
        b, t, _ = x.shape
        h_f = x.new_zeros(b, self.hidden)
        h_b = x.new_zeros(b, self.hidden)
        fwd, bwd = [], []
        for i in range(x.size(1)):
            h_f = self.fw(x[:, i], h_f)
            fwd.append(h_f)
        for i in reversed(range(t)):
            h_b = self.bw(x[:, i], h_b)
            bwd.insert(0, h_b)
        return torch.cat([torch.stack(fwd, 1), torch.stack(bwd, 1)], dim=-1)


def model():
    torch.manual_seed(0)
    return BiGRU()


def example_inputs():
    return (torch.randn(2, 5, 8),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=32)},)


def verify_inputs():
    return [(torch.randn(2, 2, 8),), (torch.randn(2, 17, 8),)]
