"""Conv stem that pads odd widths to even before a stride-2 conv, and crops if wider than 20."""

import torch
import torch.nn.functional as F
from torch import nn


class OddPad(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 6, 2, stride=2)

    def forward(self, x):
        if x.shape[-1] % 2 == 1:
            x = F.pad(x, (0, 1))
        y = self.conv(x)
        if y.shape[-1] > 10:
            y = y[..., :10]
        elif y.shape[-1] < 4:
            y = torch.cat([y, y], dim=-1)
        return y.relu()


def model():
    torch.manual_seed(0)
    return OddPad()


def example_inputs():
    return (torch.randn(1, 4, 12),)


def dynamic_shapes():
    return ({2: torch.export.Dim("w", min=2, max=64)},)


def verify_inputs():
    return [
        (torch.randn(1, 4, 13),),
        (torch.randn(1, 4, 30),),
        (torch.randn(1, 4, 5),),
        (torch.randn(1, 4, 6),),
    ]
