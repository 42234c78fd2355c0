"""Per-sample routing over a dynamic batch: a Python loop over `range(x.shape[0])` sends each
image through a light or heavy branch depending on its own energy, results appended and
concatenated."""

import torch
from torch import nn


class Router(nn.Module):
    def __init__(self, thr: float = 1.0):
        super().__init__()
        self.light = nn.Sequential(nn.Conv2d(3, 8, 1), nn.ReLU())
        self.heavy = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1)
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.thr = thr

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        outs = []
        for i in range(x.shape[0]):
            xi = x[i : i + 1]
            if xi.pow(2).mean().sqrt() > self.thr:
                outs.append(self.pool(self.heavy(xi)).flatten(1))
            else:
                outs.append(self.pool(self.light(xi)).flatten(1))
        return torch.cat(outs, dim=0)


def model() -> nn.Module:
    torch.manual_seed(0)
    return Router().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(3, 3, 16, 16),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(19)
    mixed = torch.randn(4, 3, 16, 16, generator=g)
    mixed[0] *= 0.2
    mixed[2] *= 3.0
    return [
        (torch.randn(1, 3, 16, 16, generator=g) * 0.2,),  # single light sample
        (torch.randn(1, 3, 16, 16, generator=g) * 3.0,),  # single heavy sample
        (mixed,),  # both branches in one batch
    ]
