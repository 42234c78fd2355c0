"""Plain-Python structure (config flags, self.training, ModuleList loop, static size) plus one tensor if."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim, use_norm):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim) if use_norm else nn.Identity()
        self.drop = nn.Dropout(0.2)

    def forward(self, x):
        h = self.fc(self.norm(x))
        if self.training:
            h = self.drop(h)
        return h


class Stack(nn.Module):
    def __init__(self, dim=32, depth=3, residual=True, use_norm=True, clamp_output=False):
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim, use_norm) for _ in range(depth)])
        self.residual = residual
        self.clamp_output = clamp_output
        self.dim = dim

    def forward(self, x):
        if x.shape[-1] != self.dim:
            raise ValueError("bad feature size")
        for blk in self.blocks:
            x = x + blk(x) if self.residual else blk(x)
        if self.clamp_output:
            x = x.clamp(-1, 1)
        if x.shape[0] == 1:
            x = x * 1.0
        if x.mean() > 0:
            x = x - 1
        return x


def model():
    torch.manual_seed(0)
    return Stack().eval()


def example_inputs():
    return (torch.randn(4, 32),)


def verify_inputs():
    return [(torch.full((4, 32), 5.0),), (torch.full((4, 32), -5.0),)]
