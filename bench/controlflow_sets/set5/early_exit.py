"""Dynamic-depth classifier: exits after a block once confident (break on tensor in ModuleList loop)."""

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return self.norm(x + torch.relu(self.fc(x)))


class EarlyExit(nn.Module):
    def __init__(self, d=16, n_cls=5, depth=4, threshold=0.4):
        super().__init__()
        self.blocks = nn.ModuleList([Block(d) for _ in range(depth)])
        self.heads = nn.ModuleList([nn.Linear(d, n_cls) for _ in range(depth)])
        self.threshold = threshold

    def forward(self, x):
        logits = torch.zeros(x.shape[0], 5)
        for block, head in zip(self.blocks, self.heads):
            x = block(x)
            logits = head(x)
            conf = logits.softmax(-1).max(-1).values.min()
            if conf > self.threshold:
                break
        return logits


def model():
    torch.manual_seed(0)
    m = EarlyExit()
    m.eval()
    return m


def example_inputs():
    torch.manual_seed(5)
    return (torch.randn(3, 16),)


def verify_inputs():
    torch.manual_seed(6)
    m = model()
    out = []
    # search a few scales for inputs exiting at different depths
    for s in (0.01, 1.0, 10.0, 100.0):
        out.append((torch.randn(3, 16) * s,))
    return out
