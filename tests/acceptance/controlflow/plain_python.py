"""Only plain-Python control flow: config flags, self.training in eval, ModuleList loops, static sizes."""

import torch
from torch import nn


class Config:
    use_norm = True
    depth = 3
    dropout = 0.1


class PlainNet(nn.Module):
    def __init__(self, cfg=Config()):
        super().__init__()
        self.cfg = cfg
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(cfg.depth)])
        self.norm = nn.LayerNorm(8) if cfg.use_norm else nn.Identity()
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        if self.cfg.use_norm:
            x = self.norm(x)
        if self.training:
            x = self.drop(x) + torch.randn_like(x) * 0.01
        if x.shape[-1] == 8:
            x = x * 2.0
        else:
            x = x[..., :8]
        for j in range(x.shape[-1] // 4):
            x = x + j
        return x


def model():
    torch.manual_seed(0)
    return PlainNet()


def example_inputs():
    return (torch.randn(3, 8),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


EXPECT_NO_REWRITES = True
