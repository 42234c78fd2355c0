"""Pads the time axis to a multiple of the patch size only when needed, then patches."""

import torch
import torch.nn.functional as F
from torch import nn

PATCH = 4


class Patcher(nn.Module):
    def __init__(self, ch=3, dim=12):
        super().__init__()
        self.proj = nn.Conv1d(ch, dim, PATCH, stride=PATCH)

    def forward(self, x):
        t = x.size(-1)
        if t % PATCH != 0:
            x = F.pad(x, (0, PATCH - t % PATCH))
        return self.proj(x).mean(-1)


def model():
    torch.manual_seed(0)
    return Patcher()


def example_inputs():
    return (torch.randn(1, 3, 12),)


def dynamic_shapes():
    return ({2: torch.export.Dim("T", min=4, max=64)},)


def verify_inputs():
    return [(torch.randn(1, 3, 13),), (torch.randn(1, 3, 30),), (torch.randn(1, 3, 64),)]
