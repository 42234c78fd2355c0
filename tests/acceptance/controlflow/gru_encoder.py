"""Bidirectional GRU encoder over padded batches, written as Python loops with length masks."""

import torch
from torch import nn

FEAT, HIDDEN = 10, 24


class MaskedBiGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.fwd = nn.GRUCell(FEAT, HIDDEN)
        self.bwd = nn.GRUCell(FEAT, HIDDEN)
        self.out = nn.Linear(2 * HIDDEN, HIDDEN)

    def forward(self, x: torch.Tensor, lengths: torch.Tensor) -> tuple:
        batch, steps, _ = x.shape
        h = x.new_zeros(batch, HIDDEN)
        fwd_out = []
        for t in range(steps):
            valid = (t < lengths).unsqueeze(-1)
            h_new = self.fwd(x[:, t], h)
            h = torch.where(valid, h_new, h)
            fwd_out.append(h_new * valid)
        h_last = h
        h = x.new_zeros(batch, HIDDEN)
        bwd_out = []
        for t in reversed(range(steps)):
            valid = (t < lengths).unsqueeze(-1)
            h_new = self.bwd(x[:, t], h)
            h = torch.where(valid, h_new, h)
            bwd_out.append(h_new * valid)
        seq = torch.cat([torch.stack(fwd_out, dim=1), torch.stack(bwd_out, dim=1).flip(1)], dim=-1)
        return self.out(seq), h_last


def model() -> nn.Module:
    torch.manual_seed(0)
    return MaskedBiGRU()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(3, 8, FEAT), torch.tensor([8, 5, 2]))


def dynamic_shapes():
    return ({1: torch.export.Dim("steps", min=2, max=40)}, None)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [
        (torch.randn(3, 20, FEAT), torch.tensor([20, 20, 20])),
        (torch.randn(3, 3, FEAT), torch.tensor([1, 3, 2])),
    ]
