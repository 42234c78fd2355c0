"""Streaming-style feature normalisation: conv front end, then per-chunk mean/variance norm, re-concatenated."""

import torch
from torch import nn


class ChunkNorm(nn.Module):
    def __init__(self, chunk: int = 16):
        super().__init__()
        self.conv = nn.Conv1d(4, 8, kernel_size=3, padding=1)
        self.chunk = chunk

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.conv(x)
        outs = []
        for start in range(0, x.shape[-1], self.chunk):
            c = x[..., start : start + self.chunk]
            c = (c - c.mean(dim=-1, keepdim=True)) / (c.std(dim=-1, keepdim=True, unbiased=False) + 1e-3)
            outs.append(c)
        return torch.cat(outs, dim=-1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return ChunkNorm()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 4, 40),)


def dynamic_shapes():
    return ({2: torch.export.Dim("time", min=2, max=128)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 4, 16),), (torch.randn(2, 4, 5),), (torch.randn(2, 4, 100),)]
