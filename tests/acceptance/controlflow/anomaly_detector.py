"""A sensor anomaly scorer returning (score, flag); thresholds are checked with an elif chain."""

import torch
from torch import nn


class AnomalyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(10, 4), nn.ReLU())
        self.dec = nn.Linear(4, 10)

    def forward(self, x):
        recon = self.dec(self.enc(x))
        err = ((recon - x) ** 2).mean()
        if err > 10.0:
            score, level = err.clamp(max=100.0), torch.tensor(2)
        elif err > 1.0:
            score, level = err, torch.tensor(1)
        else:
            score, level = err * 0.0, torch.tensor(0)
        return score, level


def model():
    torch.manual_seed(0)
    return AnomalyDetector()


def example_inputs():
    return (torch.randn(6, 10),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=32)},)


def verify_inputs():
    return [(torch.randn(6, 10) * 0.1,), (torch.randn(6, 10) * 2.0,), (torch.randn(6, 10) * 20.0,)]
