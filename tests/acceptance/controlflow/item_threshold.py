"""A confidence filter that branches on Python numbers pulled out with .item()."""

import torch
from torch import nn


class ConfidenceFilter(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Linear(6, 4)

    def forward(self, x):
        probs = torch.softmax(self.cls(x), dim=-1)
        top = probs.max().item()
        if top > 0.8:
            out = probs * 10.0
        elif top > 0.5:
            out = probs - probs.mean()
        else:
            out = torch.zeros_like(probs)
        return out


def model():
    torch.manual_seed(0)
    m = ConfidenceFilter()
    with torch.no_grad():
        m.cls.weight.copy_(torch.eye(4, 6))
        m.cls.bias.zero_()
    return m


def example_inputs():
    return (torch.randn(2, 6),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs():
    x_hi = torch.zeros(2, 6)
    x_hi[:, 0] = 10.0
    x_mid = torch.zeros(2, 6)
    x_mid[:, 0] = 1.5
    return [(x_hi,), (x_mid,), (torch.zeros(2, 6),)]
