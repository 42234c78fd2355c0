"""Config-driven encoder: Python flags, training mode, ModuleList, plus a tensor ternary for the scale."""

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, d=16, layers=3, use_norm=True, residual=True, dropout=0.1):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(layers)])
        self.norm = nn.LayerNorm(d) if use_norm else nn.Identity()
        self.use_norm = use_norm
        self.residual = residual
        self.drop = nn.Dropout(dropout)
        self.warmup_scale = 0.5

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            y = torch.relu(layer(x))
            if self.training:
                y = self.drop(y)
            x = x + y if self.residual else y
            if self.use_norm and i == len(self.layers) - 1:
                x = self.norm(x)
        scale = self.warmup_scale if x.max() > 2.4 else 1.0 - self.warmup_scale * 0.5
        return x * scale


def model():
    torch.manual_seed(0)
    m = Encoder()
    m.eval()
    return m


def example_inputs():
    torch.manual_seed(8)
    return (torch.randn(4, 16),)


def dynamic_shapes():
    return ({0: torch.export.Dim("b", min=2, max=64)},)


def verify_inputs():
    return [(torch.randn(6, 16) * 3,), (torch.randn(2, 16) - 2.0,), (torch.randn(3, 16) + 2.0,)]
