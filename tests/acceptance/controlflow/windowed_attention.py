"""Self-attention that switches to local (banded) attention for long sequences (dynamic seq dim)."""

import torch
from torch import nn

WINDOW = 4


class MaybeLocalAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(16, 48)
        self.out = nn.Linear(16, 16)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / 4.0
        n = x.shape[1]
        if n > 16:
            idx = torch.arange(n)
            band = (idx[None, :] - idx[:, None]).abs() <= WINDOW
            scores = scores.masked_fill(~band, float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        return self.out(attn @ v)


def model():
    torch.manual_seed(0)
    return MaybeLocalAttention()


def example_inputs():
    return (torch.randn(1, 8, 16),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=40)},)


def verify_inputs():
    return [(torch.randn(1, 5, 16),), (torch.randn(1, 24, 16),)]
