"""Autoregressive sampler: n_steps comes in as a tensor; outputs collected with list.append + torch.stack."""

import torch
from torch import nn


class ARSampler(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.step = nn.Linear(d, d)

    def forward(self, z0, n_steps):
        z = z0
        outs = []
        for _ in range(int(n_steps.item())):
            z = torch.tanh(self.step(z)) + 0.1 * z
            outs.append(z)
        return torch.stack(outs, dim=1)


def model():
    torch.manual_seed(0)
    return ARSampler()


def example_inputs():
    return (torch.randn(2, 6), torch.tensor(4))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16)}, None)


def verify_inputs():
    return [(torch.randn(3, 6), torch.tensor(1)), (torch.randn(2, 6), torch.tensor(12))]
