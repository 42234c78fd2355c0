"""Plain-Python control flow that must stay Python: config flags, self.training, ModuleList loops, static sizes."""

import torch
from torch import nn

EXPECT_NO_REWRITES = True  # every branch and loop here is plain Python: no graph ops


class Block(nn.Module):
    def __init__(self, d, use_norm):
        super().__init__()
        self.use_norm = use_norm
        self.fc = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d) if use_norm else nn.Identity()
        self.drop = nn.Dropout(0.3)

    def forward(self, x):
        h = self.fc(x)
        if self.use_norm:
            h = self.norm(h)
        if self.training:
            h = self.drop(h)
        return h


class ConfigNet(nn.Module):
    def __init__(self, d=16, depth=3, residual=True, head="mean"):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d, use_norm=(i % 2 == 0)) for i in range(depth)])
        self.residual = residual
        self.head = head

    def forward(self, x):
        for i, blk in enumerate(self.blocks):
            y = blk(x)
            x = x + y if self.residual else y
            if i == len(self.blocks) - 1:
                x = torch.relu(x)
        if x.shape[-1] == 16:
            x = x * 2
        if x.dim() == 3 and self.head == "mean":
            return x.mean(dim=1)
        elif self.head == "max":
            return x.amax(dim=1)
        return x[:, 0]


def model():
    torch.manual_seed(0)
    return ConfigNet().eval()


def example_inputs():
    return (torch.randn(2, 5, 16),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=64)},)


def verify_inputs():
    return [(torch.randn(2, 9, 16),), (torch.randn(2, 2, 16),)]
