"""Predictive maintenance for centrifugal pumps from vibration spectra.

Input: magnitude spectra of a 3-axis accelerometer, (3, F) with F dynamic. Long spectra are
decimated; energy in four relative frequency bands feeds a small classifier; a rule on
the high-band energy share (bearing wear) overrides the classifier.
"""
import torch
from torch import nn
import torch.nn.functional as F

BANDS = [(0.0, 0.1), (0.1, 0.25), (0.25, 0.5), (0.5, 1.0)]


class PumpHealth(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3 * len(BANDS), 32), nn.ReLU(), nn.Linear(32, 3))
        self.bearing_share = 0.6
        self.warn_prob = 0.6

    def forward(self, spec: torch.Tensor):
        if spec.shape[1] > 512:
            spec = F.avg_pool1d(spec.unsqueeze(0), 2).squeeze(0)
        n = spec.shape[1]
        energies = []
        for lo, hi in BANDS:
            energies.append(spec[:, int(lo * n):int(hi * n)].pow(2).mean(dim=1))
        e = torch.stack(energies, dim=1)               # (3, 4)
        share = e / e.sum(dim=1, keepdim=True)
        probs = torch.softmax(self.mlp(torch.log(e + 1e-6).flatten()), dim=-1)
        rms = spec.pow(2).mean().sqrt()
        if share[:, 3].max().item() > self.bearing_share:
            level = torch.full((), 2, dtype=torch.long)
            probs = torch.tensor([0.0, 0.0, 1.0])
        elif probs[1:].sum() > self.warn_prob:
            level = torch.full((), 1, dtype=torch.long)
        else:
            level = torch.zeros((), dtype=torch.long)
        return probs, level, rms


def model():
    torch.manual_seed(4)
    return PumpHealth().eval()


def _spec(seed, n, hi_gain=1.0, lo_gain=1.0):
    g = torch.Generator().manual_seed(seed)
    f = torch.linspace(0, 1, n)
    shape = lo_gain * torch.exp(-f * 6) + hi_gain * 0.2 * (f > 0.5).float()
    return shape.view(1, n) * (0.5 + torch.rand(3, n, generator=g))


def example_inputs():
    return (_spec(0, 256),)


def dynamic_shapes():
    return ({1: torch.export.Dim("F", min=64, max=2048)},)


def verify_inputs():
    return [(_spec(1, 1024),), (_spec(2, 300, hi_gain=12.0),), (_spec(3, 128, lo_gain=3.0),),
            (_spec(4, 2048, hi_gain=0.0, lo_gain=0.2),), (_spec(5, 96, hi_gain=4.0),)]
