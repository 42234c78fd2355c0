"""A tokenizer-like scanner: consumes a budget from a 1-D stream while both budget and stream last."""

import torch
from torch import nn


class Scanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.budget = 5.0

    def forward(self, x):
        i = torch.zeros((), dtype=torch.int64)
        used = torch.zeros(())
        total = torch.zeros(())
        while (i < x.shape[0]) and (used < self.budget):
            cost = x[i].abs()
            used = used + cost
            total = total + x[i] * (i + 1)
            i = i + 1
        return torch.stack([total, used, i.to(torch.float32)])


def model():
    return Scanner()


def example_inputs():
    return (torch.randn(8),)


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=64)},)


def verify_inputs():
    return [(torch.full((6,), 0.1),), (torch.full((6,), 4.0),), (torch.full((20,), 1.0),)]
