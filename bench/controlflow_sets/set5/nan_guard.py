"""Sensor-fusion head that repairs non-finite readings and saturated inputs (not/or on .all()/.any())."""

import torch
from torch import nn


class Guarded(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.fc = nn.Linear(d, 4)
        self.sat = 100.0

    def forward(self, x):
        if not torch.isfinite(x).all():
            x = torch.nan_to_num(x, nan=0.0, posinf=self.sat, neginf=-self.sat)
        if (x >= self.sat).any() or (x <= -self.sat).any():
            x = x.clamp(-self.sat, self.sat) / self.sat
        return self.fc(x)


def model():
    torch.manual_seed(0)
    return Guarded()


def example_inputs():
    torch.manual_seed(18)
    return (torch.randn(3, 6),)


def dynamic_shapes():
    return ({0: torch.export.Dim("b", min=2, max=64)},)


def verify_inputs():
    a = torch.randn(4, 6)
    a[1, 2] = float("nan")
    b = torch.randn(2, 6)
    b[0, 0] = -500.0
    c = torch.randn(3, 6)
    c[2, 5] = float("inf")
    return [(a,), (b,), (c,)]
