"""Early-exit classifier: a stack of blocks, each with an exit head; return as soon as confident."""

import torch
from torch import nn


class EarlyExit(nn.Module):
    def __init__(self, d=24, n_cls=5, depth=3):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(d, d), nn.GELU()) for _ in range(depth)])
        self.heads = nn.ModuleList([nn.Linear(d, n_cls) for _ in range(depth)])
        self.threshold = 0.9

    def forward(self, x):
        h = x
        for block, head in zip(self.blocks, self.heads):
            h = block(h) + h
            logits = head(h)
            conf = torch.softmax(logits, dim=-1).max(dim=-1).values
            if conf.min() > self.threshold:
                return logits
        return logits * 0.5


def model():
    torch.manual_seed(0)
    m = EarlyExit()
    with torch.no_grad():
        m.heads[0].weight.mul_(4.0)
    return m


def example_inputs():
    return (torch.randn(2, 24),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16)},)


def verify_inputs():
    return [(torch.randn(2, 24) * 20,), (torch.randn(4, 24) * 0.01,), (torch.randn(3, 24) * 3,)]
