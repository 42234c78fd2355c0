"""RAFT-style iterative refinement: iteration count given as a tensor; every prediction stacked."""

import torch
from torch import nn


class Refiner(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.update = nn.Sequential(nn.Linear(2 * d, d), nn.Tanh())

    def forward(self, feat, iters):
        flow = torch.zeros_like(feat)
        preds = []
        for i in range(int(iters.item())):
            delta = self.update(torch.cat([feat, flow], -1))
            flow = flow + 0.5 * delta
            preds.append(flow)
        return torch.stack(preds, 0)


def model():
    torch.manual_seed(0)
    return Refiner()


def example_inputs():
    torch.manual_seed(11)
    return (torch.randn(4, 8), torch.tensor(3))


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=128)}, None)


def verify_inputs():
    return [(torch.randn(7, 8), torch.tensor(6)), (torch.randn(2, 8), torch.tensor(1))]
