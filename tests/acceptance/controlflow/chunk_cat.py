"""A per-timestep projection over a dynamic sequence, outputs concatenated along features."""

import torch
from torch import nn


class ChunkProject(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(5, 3)

    def forward(self, x):
        pieces = []
        running = torch.zeros(x.shape[0], 3)
        for t in range(x.shape[1]):
            running = running + self.proj(x[:, t, :])
            pieces.append(running)
        return torch.cat(pieces, dim=1)


def model():
    torch.manual_seed(0)
    return ChunkProject()


def example_inputs():
    return (torch.randn(2, 4, 5),)


def dynamic_shapes():
    return ({1: torch.export.Dim("seq", min=2, max=32)},)
