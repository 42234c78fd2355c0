"""Streaming-style encoder: process a long signal in fixed chunks (range with step over a dynamic dim)."""

import torch
from torch import nn

CHUNK = 8


class ChunkedEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, 3, padding=1)

    def forward(self, x):
        # x: (B, 1, L), L dynamic
        pieces = []
        for start in range(0, x.shape[-1], CHUNK):
            chunk = x[..., start : start + CHUNK]
            y = torch.relu(self.conv(chunk))
            pieces.append(y)
        return torch.cat(pieces, dim=-1)


def model():
    torch.manual_seed(0)
    return ChunkedEncoder()


def example_inputs():
    return (torch.randn(2, 1, 24),)


def dynamic_shapes():
    return ({2: torch.export.Dim("L", min=2, max=128)},)


def verify_inputs():
    return [(torch.randn(2, 1, 5),), (torch.randn(2, 1, 37),), (torch.randn(2, 1, 64),)]
