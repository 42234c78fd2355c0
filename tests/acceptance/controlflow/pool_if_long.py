"""Sequence encoder that halves long sequences (if x.shape[1] > 16 with dim 1 dynamic): branch changes the size."""

import torch
import torch.nn.functional as F
from torch import nn


class PoolIfLong(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        h = self.proj(x)
        if x.shape[1] > 16:
            h = F.avg_pool1d(h.transpose(1, 2), 2, ceil_mode=True).transpose(1, 2)
        return h.cumsum(dim=1)


def model():
    torch.manual_seed(0)
    return PoolIfLong()


def example_inputs():
    return (torch.randn(2, 10, 8),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=64)},)


def verify_inputs():
    return [(torch.randn(2, 17, 8),), (torch.randn(2, 40, 8),), (torch.randn(2, 16, 8),)]
