"""Anomaly scorer with on-device threshold calibration: bisection for the score quantile that flags a target rate."""

import torch
from torch import nn

FEAT = 12


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(FEAT, 6), nn.Tanh(), nn.Linear(6, 3))
        self.dec = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, FEAT))

    def forward(self, x):
        return self.dec(self.enc(x))


def bisect_threshold(scores, target_rate, tol=1e-4, max_iter=40):
    """Smallest threshold (to `tol`) such that the fraction of scores above it is <= target_rate."""
    lo = scores.min()
    hi = scores.max()
    if (hi - lo).item() < tol:
        return hi
    for _ in range(max_iter):
        mid = (lo + hi) / 2
        frac = (scores > mid).float().mean()
        if frac > target_rate:
            lo = mid
        else:
            hi = mid
        if hi - lo < tol:
            break
    return hi


class AnomalyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.ae = AutoEncoder()

    def forward(self, x, target_rate):
        err = ((self.ae(x) - x) ** 2).mean(dim=1)
        thr = bisect_threshold(err, target_rate)
        return err, thr, (err > thr).float()


def model():
    torch.manual_seed(0)
    return AnomalyDetector().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(100, FEAT), torch.tensor(0.045))


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=1, max=2048)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    same = torch.randn(1, FEAT, generator=g).repeat(20, 1)
    return [
        (torch.randn(2048, FEAT, generator=g), torch.tensor(0.01)),
        (torch.randn(50, FEAT, generator=g) * 4, torch.tensor(0.15)),
        (same, torch.tensor(0.12)),  # identical rows: degenerate range, early return
        (torch.randn(1, FEAT, generator=g), torch.tensor(0.5)),  # a single sample
        (torch.randn(30, FEAT, generator=g), torch.tensor(0.0)),
        # sensor glitch: errors ~1e8, fp32 spacing exceeds tol, so bisection runs all max_iter steps
        (torch.randn(64, FEAT, generator=g) * 3e4, torch.tensor(0.07)),
    ]
