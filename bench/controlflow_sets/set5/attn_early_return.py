"""Attention block: optional mask (Python None check), early return when fully masked, ternary temperature."""

import torch
from torch import nn


class MaskedAttn(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.d = d

    def forward(self, x, mask=None):
        q, k, v = self.qkv(x).chunk(3, -1)
        scores = q @ k.transpose(-1, -2) / self.d**0.5
        if mask is not None:
            if (mask == 0).all():
                return x
            scores = scores.masked_fill(mask[:, None, :] == 0, -1e4)
        temp = 0.5 if scores.std() > 2.0 else 1.0
        attn = (scores / temp).softmax(-1)
        return x + self.proj(attn @ v)


def model():
    torch.manual_seed(0)
    return MaskedAttn()


def example_inputs():
    torch.manual_seed(13)
    mask = torch.ones(2, 5)
    mask[0, 3:] = 0
    return (torch.randn(2, 5, 16), mask)


def dynamic_shapes():
    s = torch.export.Dim("s", min=2, max=64)
    return ({1: s}, {1: s})


def verify_inputs():
    return [
        (torch.randn(2, 7, 16), torch.zeros(2, 7)),
        (torch.randn(2, 4, 16) * 10, torch.ones(2, 4)),
        (torch.randn(2, 9, 16) * 0.1, torch.ones(2, 9)),
    ]
