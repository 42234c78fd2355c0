"""Self-attention with a causal mask built from the sequence size; long inputs get a local window."""

import math

import torch
from torch import nn


class LocalCausalAttention(nn.Module):
    def __init__(self, dim=16, window=8):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o = nn.Linear(dim, dim)
        self.window = window

    def forward(self, x):
        T = x.shape[1]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        att = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        if T > self.window:
            idx = torch.arange(T)
            far = (idx[:, None] - idx[None, :]) >= self.window
            mask = mask | far
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        return self.o(att @ v)


def model():
    torch.manual_seed(0)
    return LocalCausalAttention()


def example_inputs():
    return (torch.randn(2, 6, 16),)


def dynamic_shapes():
    return ({1: torch.export.Dim("T", min=2, max=48)},)


def verify_inputs():
    return [(torch.randn(2, 20, 16),), (torch.randn(2, 8, 16),), (torch.randn(2, 9, 16),)]
