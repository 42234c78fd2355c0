"""Input-dependent preprocessing with ternaries, and/or/not and bool() on tensor predicates."""

import torch
from torch import nn


class LogicNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = 2.0 if x.mean() > 0 else 0.5
        h = x * scale
        if h.mean() > 0 and h.std() < 1.0:
            y = torch.relu(h)
        elif not (h > 0).any() or bool(h.min() < -5):
            y = -h
        else:
            y = torch.sigmoid(h)
        out = self.fc(y)
        out = out if out.sum() > 0 else out.abs()
        return out


def model() -> nn.Module:
    torch.manual_seed(0)
    return LogicNet()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(4, 16),)


def verify_inputs() -> list:
    torch.manual_seed(2)
    base = torch.rand(4, 16)
    return [
        (base * 0.3 + 0.1,),
        (-base - 0.1,),
        (torch.randn(4, 16) * 4,),
        (base * 3,),
    ]
