"""Point-cloud grouping: pad when fewer than K points, per-point loop over the dynamic point dim with torch.cat."""

import torch
from torch import nn
import torch.nn.functional as F


class Grouper(nn.Module):
    def __init__(self, k=8, d=3, h=16):
        super().__init__()
        self.k = k
        self.mlp = nn.Linear(d, h)

    def forward(self, pts):
        if pts.shape[1] < self.k:
            pts = F.pad(pts, (0, 0, 0, self.k - pts.shape[1]))
        center = pts.mean(1, keepdim=True)
        feats = []
        for i in range(pts.shape[1]):
            p = pts[:, i : i + 1] - center
            feats.append(torch.relu(self.mlp(p)))
        f = torch.cat(feats, 1)
        return f.max(1).values, f.shape[1] * torch.ones(1)


def model():
    torch.manual_seed(0)
    return Grouper()


def example_inputs():
    torch.manual_seed(15)
    return (torch.randn(2, 10, 3),)


def dynamic_shapes():
    return ({1: torch.export.Dim("N", min=2, max=256)},)


def verify_inputs():
    return [(torch.randn(2, 5, 3),), (torch.randn(2, 30, 3),), (torch.randn(2, 8, 3),)]
