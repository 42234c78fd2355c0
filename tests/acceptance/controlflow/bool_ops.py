"""A two-input fusion that picks a mode from and / or / not over tensor predicates."""

import torch
from torch import nn


class Fusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(6, 6)
        self.b = nn.Linear(6, 6)

    def forward(self, x, z):
        ha, hb = self.a(x), self.b(z)
        if (x.mean() > 0 and z.mean() > 0) or not (x.max() < 5):
            out = ha + hb
        elif not z.mean() > 0:
            out = ha - hb
        else:
            out = ha * hb
        return out


def model():
    torch.manual_seed(0)
    return Fusion()


def example_inputs():
    return (torch.randn(2, 6), torch.randn(2, 6))


def dynamic_shapes():
    b = torch.export.Dim("batch", min=1, max=16)
    return ({0: b}, {0: b})


def verify_inputs():
    pos, neg = torch.full((2, 6), 1.0), torch.full((2, 6), -1.0)
    return [
        (pos, pos),
        (neg, neg),
        (neg, pos),
        (torch.full((2, 6), 9.0) * torch.tensor([1.0, -1.0] * 3), neg),
    ]
