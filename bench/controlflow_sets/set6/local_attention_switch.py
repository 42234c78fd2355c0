"""Self-attention layer that switches to banded (local) attention when the dynamic sequence is
longer than the window, and takes a shortcut (return) for a single token."""

import math

import torch
from torch import nn

DIM = 32


class SwitchAttention(nn.Module):
    def __init__(self, window: int = 16):
        super().__init__()
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.out = nn.Linear(DIM, DIM)
        self.window = window

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        seq = x.shape[1]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if seq == 1:
            return x + self.out(v)
        scores = q @ k.transpose(1, 2) / math.sqrt(DIM)
        if seq > self.window:
            pos = torch.arange(seq)
            band = (pos[:, None] - pos[None, :]).abs() <= self.window // 2
            scores = scores.masked_fill(~band, float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        return x + self.out(attn @ v)


def model() -> nn.Module:
    torch.manual_seed(0)
    return SwitchAttention().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 10, DIM),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=1, max=512)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(12)
    return [
        (torch.randn(2, 1, DIM, generator=g),),
        (torch.randn(2, 16, DIM, generator=g),),
        (torch.randn(2, 17, DIM, generator=g),),
        (torch.randn(2, 100, DIM, generator=g),),
    ]
