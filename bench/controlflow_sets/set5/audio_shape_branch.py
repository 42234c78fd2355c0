"""1-D audio front end that picks a pooling by clip length (branch on a dynamic size)."""

import torch
from torch import nn
import torch.nn.functional as F


class Frontend(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.conv = nn.Conv1d(1, c, 3, padding=1)

    def forward(self, wav):
        x = torch.relu(self.conv(wav))
        if x.shape[-1] > 64:
            x = F.avg_pool1d(x, 4)
        elif x.shape[-1] > 16:
            x = F.avg_pool1d(x, 2)
        else:
            x = x * 1.0
        return x.mean(-1), x.amax(-1)


def model():
    torch.manual_seed(0)
    return Frontend()


def example_inputs():
    return (torch.randn(2, 1, 40),)


def dynamic_shapes():
    return ({2: torch.export.Dim("L", min=4, max=512)},)


def verify_inputs():
    return [
        (torch.randn(2, 1, 100),),
        (torch.randn(2, 1, 12),),
        (torch.randn(2, 1, 17),),
        (torch.randn(2, 1, 64),),
    ]
