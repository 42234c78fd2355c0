"""Activation selector mixing and/or/not on tensor predicates and tensor ternaries."""

import torch
from torch import nn


class Selector(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        h = self.fc(x)
        y = h
        if (x > 0).all() or not (x.sum() < 20):
            y = torch.relu(h)
        elif x.max() > 1 and x.min() < -1:
            y = torch.tanh(h)
        scale = 2.0 if h.mean() > 0 else 0.5
        return y * scale


def model():
    torch.manual_seed(0)
    return Selector()


def example_inputs():
    return (torch.randn(2, 8),)


def verify_inputs():
    return [
        (torch.full((2, 8), 0.5),),  # all positive
        (torch.full((2, 8), 3.0) - torch.eye(2, 8) * 4,),  # sum >= 20, not all positive
        (torch.randn(2, 8) * 0.1,),  # small: neither -> y = h
        (-torch.full((2, 8), 0.5),),
    ]
