"""Single-head attention; masked only if any position is padded (mask.any()), optional mask (None check stays Python)."""

import math

import torch
from torch import nn


class MaskedAttention(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.d = d

    def forward(self, x, pad):
        return self.attend(x, pad, None)

    def attend(self, x, pad, bias):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = q @ k.transpose(-1, -2) / math.sqrt(self.d)
        if bias is not None:
            att = att + bias
        if pad.any():
            att = att.masked_fill(pad[:, None, :], -1e4)
        att = torch.softmax(att, dim=-1)
        return self.out(att @ v)


def model():
    torch.manual_seed(0)
    return MaskedAttention()


def example_inputs():
    pad = torch.zeros(2, 7, dtype=torch.bool)
    pad[0, 5:] = True
    return (torch.randn(2, 7, 16), pad)


def dynamic_shapes():
    s = torch.export.Dim("seq", min=2, max=64)
    return ({1: s}, {1: s})


def verify_inputs():
    return [(torch.randn(2, 9, 16), torch.zeros(2, 9, dtype=torch.bool))]
