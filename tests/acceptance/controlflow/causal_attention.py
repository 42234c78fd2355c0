"""Causal self-attention whose mask is built from the (dynamic) sequence length; long inputs get a local band."""

import math

import torch
from torch import nn

DIM = 32


class LocalCausalAttention(nn.Module):
    def __init__(self, window: int = 8):
        super().__init__()
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.out = nn.Linear(DIM, DIM)
        self.window = window

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        t = x.shape[1]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        if t > self.window:
            band = torch.ones(t, t, dtype=torch.bool, device=x.device).triu(-(self.window - 1))
            mask = causal & band
        else:
            mask = causal
        scores = q @ k.transpose(-2, -1) / math.sqrt(DIM)
        scores = scores.masked_fill(~mask, float("-inf"))
        return x + self.out(torch.softmax(scores, dim=-1) @ v)


def model() -> nn.Module:
    torch.manual_seed(0)
    return LocalCausalAttention()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 6, DIM),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=32)},)


def verify_inputs() -> list:
    torch.manual_seed(2)
    return [(torch.randn(2, 20, DIM),), (torch.randn(2, 8, DIM),), (torch.randn(2, 9, DIM),)]
