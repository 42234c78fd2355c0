"""A model with a tensor-valued Python `if`: eager PyTorch runs it, torch.export refuses it.

deploy's rewriters turn the `if` into torch.cond (issue #3).
"""

import torch
from torch import nn


class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc(x)
        if h.mean() > 0:
            y = torch.relu(h) * 2.0
        else:
            y = torch.tanh(h) - 1.0
        return y + x


def model() -> nn.Module:
    torch.manual_seed(0)
    return Branchy()


def example_inputs() -> tuple:
    return (torch.randn(4, 32),)


def verify_inputs() -> list:
    # One input for each side of the branch.
    return [(torch.full((4, 32), 3.0),), (torch.full((4, 32), -3.0),)]
