"""BranchyNet-style early-exit classifier: exit after a stage when confident enough."""

import torch
import torch.nn.functional as F
from torch import nn


class EarlyExitNet(nn.Module):
    def __init__(self, dim=32, classes=10, stages=3, threshold=0.5):
        super().__init__()
        self.stages = nn.ModuleList([nn.Sequential(nn.Linear(dim, dim), nn.ReLU()) for _ in range(stages)])
        self.heads = nn.ModuleList([nn.Linear(dim, classes) for _ in range(stages)])
        self.threshold = threshold

    def forward(self, x):
        h = x
        for i, (stage, head) in enumerate(zip(self.stages, self.heads)):
            h = stage(h)
            logits = head(h)
            conf = F.softmax(logits, dim=-1).max(dim=-1).values
            if conf.min() > self.threshold:
                return logits
        return logits


def model():
    torch.manual_seed(0)
    return EarlyExitNet().eval()


def example_inputs():
    return (torch.randn(2, 32),)


def verify_inputs():
    return [(torch.randn(2, 32) * 30,), (torch.zeros(2, 32),), (torch.randn(2, 32) * 0.1,)]
