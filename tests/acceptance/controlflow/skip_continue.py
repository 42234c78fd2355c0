"""Masked accumulation: skips timesteps whose frame is mostly negative (continue on a tensor)."""

import torch
from torch import nn


class SkipAccumulate(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(6, 6)

    def forward(self, x):
        acc = torch.zeros(x.shape[0], 6)
        count = torch.zeros(())
        for t in range(x.shape[1]):
            frame = x[:, t]
            if frame.mean() < 0:
                continue
            acc = acc + torch.relu(self.enc(frame))
            count = count + 1
        return acc / count.clamp(min=1.0)


def model():
    torch.manual_seed(0)
    return SkipAccumulate()


def example_inputs():
    return (torch.randn(2, 7, 6),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=32)},)


def verify_inputs():
    return [(torch.randn(2, 7, 6).abs(),), (-torch.randn(2, 7, 6).abs(),)]
