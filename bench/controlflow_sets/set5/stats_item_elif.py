"""Feature scaler choosing a transform from .item() statistics; variable kept from before the if."""

import torch
from torch import nn


class AutoScale(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        y = x
        spread = x.std().item()
        if spread > 5.0:
            y = torch.log1p(x.abs()) * torch.sign(x)
        elif spread > 1.5:
            y = x / spread
        center = x.mean().item()
        if abs(center) > 1.0:
            y = y - center
        return self.fc(y)


def model():
    torch.manual_seed(0)
    return AutoScale()


def example_inputs():
    torch.manual_seed(17)
    return (torch.randn(3, 8),)


def dynamic_shapes():
    return ({0: torch.export.Dim("b", min=2, max=64)},)


def verify_inputs():
    return [
        (torch.randn(4, 8) * 20,),
        (torch.randn(2, 8) * 3,),
        (torch.randn(5, 8) + 4.0,),
        (torch.randn(3, 8) * 0.5,),
    ]
