"""Feature gating written with conditional expressions and `and` / `or` / `not` on tensor
predicates, plus a config flag and `self.training` that must stay plain Python."""

import torch
from torch import nn


class TernaryGate(nn.Module):
    def __init__(self, use_residual: bool = True):
        super().__init__()
        self.fc1 = nn.Linear(16, 16)
        self.fc2 = nn.Linear(16, 16)
        self.use_residual = use_residual
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scale = 0.5 if x.abs().max() > 4.0 else 1.0
        h = self.fc1(x * scale)
        y = torch.relu(h) if (h.mean() > 0 and h.std() < 2.0) else torch.sigmoid(h)
        if not (y > 0.6).any() or x.min() < -6.0:
            y = y + self.fc2(x)
        if self.training:
            y = self.drop(y)
        return y + x if self.use_residual else y


def model() -> nn.Module:
    torch.manual_seed(0)
    return TernaryGate().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(4, 16),)


def verify_inputs() -> list:
    return [
        (torch.full((4, 16), 0.3),),
        (torch.full((4, 16), -0.3),),
        (torch.full((4, 16), 5.0),),
        (torch.full((4, 16), -7.0),),
        (torch.linspace(-3, 3, 64).reshape(4, 16),),
        (torch.linspace(-30, 30, 64).reshape(4, 16),),
    ]
