"""Spike detector: integrate a signal over time until the running sum crosses a threshold (break)."""

import torch
from torch import nn


class FirstSpike(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 1)

    def forward(self, x):
        s = self.enc(x).squeeze(-1)  # (B, T)
        acc = torch.zeros(s.shape[0])
        t_hit = torch.full((), -1.0)
        for t in range(x.shape[1]):
            acc = acc + s[:, t].abs()
            if acc.sum() > 4.0:
                t_hit = torch.full((), float(t))
                break
        return acc, t_hit


def model():
    torch.manual_seed(0)
    return FirstSpike()


def example_inputs():
    return (torch.randn(2, 12, 3),)


def dynamic_shapes():
    return ({1: torch.export.Dim("t", min=2, max=64)},)


def verify_inputs():
    return [(torch.zeros(2, 5, 3),), (torch.randn(2, 30, 3) * 5,), (torch.randn(2, 3, 3) * 0.01,)]
