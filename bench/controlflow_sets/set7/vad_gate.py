"""Voice-activity gating over framed audio (B, T, 160) with T dynamic.

if/elif/else on any()/all() of per-frame energy, return inside the first branch.
"""

import torch
from torch import nn

FRAME = 160


class VADEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(FRAME, 64), nn.ReLU(), nn.Linear(64, 32))
        self.silence = nn.Parameter(torch.randn(32) * 0.1)
        self.threshold_db = -30.0

    def forward(self, frames):
        energy = 10.0 * torch.log10(frames.pow(2).mean(dim=-1) + 1e-10)
        voiced = energy > self.threshold_db
        if not voiced.any():
            return self.silence.expand(frames.shape[0], -1)
        feats = self.enc(frames)
        if voiced.all():
            pooled = feats.mean(dim=1)
        else:
            w = voiced.float().unsqueeze(-1)
            pooled = (feats * w).sum(dim=1) / w.sum(dim=1).clamp_min(1.0)
        return torch.tanh(pooled)


def model():
    torch.manual_seed(0)
    return VADEncoder().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, 20, FRAME) * 0.1,)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=2, max=200)},)


def verify_inputs():
    torch.manual_seed(3)
    loud = torch.randn(2, 37, FRAME) * 0.2
    mixed = loud.clone()
    mixed[:, 10:20] *= 1e-4
    return [
        (torch.randn(2, 9, FRAME) * 1e-4,),  # all silent -> early return
        (loud,),  # all voiced -> plain mean
        (mixed,),  # some voiced -> masked mean
    ]
