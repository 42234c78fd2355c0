"""Input sanitiser that checks masks with .any() / .all() before normalising."""

import torch
from torch import nn


class Sanitiser(nn.Module):
    def forward(self, x):
        if torch.isnan(x).any():
            x = torch.nan_to_num(x, nan=0.0)
        if (x < 0).all():
            y = -x
        elif (x > 1).any():
            y = x / x.max()
        else:
            y = x
        return y.sum(dim=-1)


def model():
    return Sanitiser()


def example_inputs():
    return (torch.rand(4, 5),)


def dynamic_shapes():
    return ({1: torch.export.Dim("width", min=2, max=32)},)


def verify_inputs():
    nan = torch.rand(4, 5)
    nan[1, 2] = float("nan")
    return [(nan,), (-torch.rand(4, 5) - 0.1,), (torch.rand(4, 5) * 5.0,), (torch.rand(4, 5) * 0.5,)]
