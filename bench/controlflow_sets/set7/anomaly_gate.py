"""Time-series anomaly gate: robust rescaling only when a z-score exceeds a threshold.

bool(t) predicate, ternary on a tensor, elif on a reduction, dynamic time length.
"""

import torch
from torch import nn


class AnomalyGate(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.GRU(4, 16, batch_first=True)
        self.head = nn.Linear(16, 1)
        self.z_thresh = 4.0

    def forward(self, series):
        mu = series.mean(dim=1, keepdim=True)
        std = series.std(dim=1, keepdim=True)
        std = std if bool((std > 1e-4).all()) else std.clamp_min(1e-4)
        z = (series - mu) / std
        if bool(z.abs().amax() > self.z_thresh):
            x = z.clamp(-self.z_thresh, self.z_thresh)
            flag = torch.ones(series.shape[0], 1)
        elif z.abs().mean() < 0.1:
            x = torch.zeros_like(z)
            flag = torch.full((series.shape[0], 1), -1.0)
        else:
            x = z
            flag = torch.zeros(series.shape[0], 1)
        out, _ = self.enc(x)
        return torch.cat([self.head(out[:, -1]), flag], dim=-1)


def model():
    torch.manual_seed(0)
    return AnomalyGate().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, 50, 4),)


def dynamic_shapes():
    return ({1: torch.export.Dim("steps", min=4, max=500)},)


def verify_inputs():
    torch.manual_seed(6)
    spiky = torch.randn(2, 120, 4)
    spiky[1, 60, 2] = 80.0
    const = torch.ones(2, 10, 4) * 3.0
    const[:, 0] += 1e-7
    return [
        (torch.randn(2, 30, 4),),  # normal: else branch, std ternary keeps std
        (spiky,),  # spike: clamp branch
        (const,),  # flat series: tiny std -> ternary clamps, z small -> elif branch
    ]
