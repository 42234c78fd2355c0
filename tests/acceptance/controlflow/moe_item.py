"""Top-1 mixture of experts where the router picks one expert per batch via .item()."""

import torch
from torch import nn


class BatchMoE(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.router = nn.Linear(dim, 3)
        self.e0 = nn.Linear(dim, dim)
        self.e1 = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.e2 = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        scores = self.router(x).mean(dim=0)
        choice = scores.argmax().item()
        if choice == 0:
            y = self.e0(x)
        elif choice == 1:
            y = self.e1(x)
        else:
            y = self.e2(x) * 0.5
        gate = torch.softmax(scores, dim=0).max()
        return x + gate * y


def model():
    torch.manual_seed(0)
    return BatchMoE()


def _toward(k):
    m = model()
    w = m.router.weight.detach()
    d = w[k] - w[[i for i in range(3) if i != k]].mean(0)
    return (d / d.norm() * 40).repeat(2, 1)


def example_inputs():
    return (torch.randn(2, 16),)


def verify_inputs():
    return [(_toward(0),), (_toward(1),), (_toward(2),)]
