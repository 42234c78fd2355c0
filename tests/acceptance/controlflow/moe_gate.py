"""Mixture of experts that routes the whole batch to one expert picked by the mean gate score."""

import torch
from torch import nn


class MoE(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(12, 3)
        self.e0 = nn.Sequential(nn.Linear(12, 12), nn.ReLU())
        self.e1 = nn.Sequential(nn.Linear(12, 12), nn.Tanh())
        self.e2 = nn.Linear(12, 12)

    def forward(self, x):
        g = torch.softmax(self.gate(x), dim=-1).mean(0)
        if g[0] >= g[1] and g[0] >= g[2]:
            y = self.e0(x) * g[0]
        elif g[1] >= g[2]:
            y = self.e1(x) * g[1]
        else:
            y = self.e2(x) * g[2]
        return y + x


def model():
    torch.manual_seed(0)
    m = MoE()
    with torch.no_grad():
        m.gate.weight.copy_(torch.eye(3, 12) * 4.0)
        m.gate.bias.zero_()
    return m


def example_inputs():
    return (torch.randn(4, 12),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs():
    def pick(k):
        x = torch.zeros(4, 12)
        x[:, k] = 3.0
        return (x,)

    return [pick(0), pick(1), pick(2)]
