"""Sanitizes inputs with bool(t), torch.any / .all() checks before a head."""

import torch
from torch import nn


class Sanitize(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(6, 3)

    def forward(self, x):
        if torch.isnan(x).any():
            x = torch.nan_to_num(x, nan=0.0)
        if bool(x.norm() > 10.0):
            x = x / x.norm() * 10.0
        if not (x >= 0).all():
            x = x - x.min()
        return self.head(x)


def model():
    torch.manual_seed(0)
    return Sanitize()


def example_inputs():
    return (torch.randn(2, 6),)


def verify_inputs():
    nan_x = torch.rand(2, 6)
    nan_x[0, 1] = float("nan")
    return [(nan_x,), (torch.rand(2, 6) * 100,), (torch.rand(2, 6),)]
