"""A gated activation written with ternaries on bool(tensor) and on a comparison."""

import torch
from torch import nn


class TernaryGate(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 10)

    def forward(self, x):
        h = self.fc(x)
        scale = 2.0 if bool(h.sum() > 0) else 0.5
        act = torch.relu(h) if h.std() > 1.0 else torch.sigmoid(h)
        return act * scale


def model():
    torch.manual_seed(0)
    return TernaryGate()


def example_inputs():
    return (torch.randn(3, 10),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs():
    return [
        (torch.full((3, 10), 5.0),),
        (torch.full((3, 10), -5.0),),
        (torch.randn(3, 10) * 0.01,),
        (torch.randn(3, 10) * 50.0,),
    ]
