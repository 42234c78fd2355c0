"""Sequence tagger with padding mask: skips all-padded steps (bool(t), not, continue)."""

import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self, d=12, h=16, tags=6):
        super().__init__()
        self.cell = nn.GRUCell(d, h)
        self.out = nn.Linear(h, tags)
        self.h = h

    def forward(self, x, mask):
        h = torch.zeros(x.shape[0], self.h)
        tags = []
        for t in range(x.shape[1]):
            m = mask[:, t]
            if not bool(m.any()):
                tags.append(torch.zeros(x.shape[0], 6))
                continue
            new_h = self.cell(x[:, t], h)
            h = torch.where(m[:, None] > 0, new_h, h)
            tags.append(self.out(h))
        return torch.stack(tags, 1)


def model():
    torch.manual_seed(0)
    return Tagger()


def example_inputs():
    torch.manual_seed(7)
    mask = torch.ones(2, 5)
    mask[1, 3:] = 0
    return (torch.randn(2, 5, 12), mask)


def dynamic_shapes():
    T = torch.export.Dim("T", min=2, max=64)
    return ({1: T}, {1: T})


def verify_inputs():
    mask = torch.ones(2, 8)
    mask[:, 5:] = 0
    mask[0, 2] = 0
    return [(torch.randn(2, 8, 12), mask)]
