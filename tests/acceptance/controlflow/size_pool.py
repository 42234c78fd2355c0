"""Sequence encoder that pools long inputs down to a maximum length (dynamic length)."""

import torch
import torch.nn.functional as F
from torch import nn

MAX_T = 16


class Encoder(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.conv = nn.Conv1d(ch, ch, 3, padding=1)

    def forward(self, x):
        # x: (B, C, T)
        if x.shape[2] > MAX_T:
            x = F.adaptive_avg_pool1d(x, MAX_T)
        h = torch.relu(self.conv(x))
        return h.mean(dim=-1) + h.amax(dim=-1)


def model():
    torch.manual_seed(0)
    return Encoder()


def example_inputs():
    return (torch.randn(2, 8, 10),)


def dynamic_shapes():
    return ({2: torch.export.Dim("T", min=2, max=64)},)


def verify_inputs():
    return [(torch.randn(2, 8, 40),), (torch.randn(2, 8, 16),), (torch.randn(2, 8, 17),)]
