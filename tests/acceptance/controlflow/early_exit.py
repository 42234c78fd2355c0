"""Early-exit transformer encoder (DeeBERT style): each layer has a classifier; stop once confident."""

import math

import torch
from torch import nn

DIM, HEADS, CLASSES = 32, 4, 5


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(DIM)
        self.qkv = nn.Linear(DIM, 3 * DIM)
        self.proj = nn.Linear(DIM, DIM)
        self.ln2 = nn.LayerNorm(DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 4 * DIM), nn.GELU(), nn.Linear(4 * DIM, DIM))
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).chunk(3, dim=-1)
        q = q.view(b, t, HEADS, -1).transpose(1, 2)
        k = k.view(b, t, HEADS, -1).transpose(1, 2)
        v = v.view(b, t, HEADS, -1).transpose(1, 2)
        att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(DIM // HEADS), dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, DIM)
        x = x + self.drop(self.proj(y))
        return x + self.drop(self.mlp(self.ln2(x)))


class EarlyExitEncoder(nn.Module):
    def __init__(self, depth: int = 3, threshold: float = 0.3):
        super().__init__()
        self.embed = nn.Linear(12, DIM)
        self.layers = nn.ModuleList([Block() for _ in range(depth)])
        self.exits = nn.ModuleList([nn.Linear(DIM, CLASSES) for _ in range(depth)])
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.embed(x)
        logits = None
        for layer, exit_head in zip(self.layers, self.exits):
            h = layer(h)
            logits = exit_head(h.mean(dim=1))
            conf = torch.softmax(logits, dim=-1).max(dim=-1).values.min()
            if not self.training and conf > self.threshold:
                return logits
        return logits


def model() -> nn.Module:
    torch.manual_seed(0)
    return EarlyExitEncoder()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 9, 12),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=40)},)


def verify_inputs() -> list:
    return [
        (torch.randn(2, 5, 12, generator=torch.Generator().manual_seed(2)) * s,)
        for s in (0.01, 1.0, 3.0, 10.0)
    ]
