"""A tiny transformer encoder: 2 layers, d_model 128, 4 heads, hand-written attention.

The sequence length is dynamic (dim 1 of the token ids), from 2 to 256.
"""

import math

import torch
from torch import nn

VOCAB, D_MODEL, HEADS, LAYERS, MAX_LEN = 1000, 128, 4, 2, 256


class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D_MODEL, 3 * D_MODEL)
        self.proj = nn.Linear(D_MODEL, D_MODEL)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        q, k, v = self.qkv(x).split(D_MODEL, dim=-1)
        head = D_MODEL // HEADS
        q, k, v = (z.reshape(b, t, HEADS, head).transpose(1, 2) for z in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(head)
        out = torch.softmax(scores, dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(b, t, D_MODEL))


class EncoderLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm(D_MODEL)
        self.attn = SelfAttention()
        self.norm2 = nn.LayerNorm(D_MODEL)
        self.mlp = nn.Sequential(nn.Linear(D_MODEL, 4 * D_MODEL), nn.GELU(), nn.Linear(4 * D_MODEL, D_MODEL))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TinyTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.pos = nn.Parameter(torch.randn(MAX_LEN, D_MODEL) * 0.02)
        self.layers = nn.ModuleList(EncoderLayer() for _ in range(LAYERS))
        self.norm = nn.LayerNorm(D_MODEL)
        self.head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens) + self.pos[: tokens.shape[1]]
        for layer in self.layers:
            x = layer(x)
        return self.head(self.norm(x))


def model() -> nn.Module:
    torch.manual_seed(0)
    return TinyTransformer()


def example_inputs() -> tuple:
    return (torch.randint(0, VOCAB, (1, 16)),)


def dynamic_shapes():
    seq = torch.export.Dim("seq", min=2, max=MAX_LEN)
    return ({1: seq},)
