"""Ride analysis for a cycling head unit: FTP estimate, normalized power and TSS.

power: watts, one sample per second (dynamic length); hr: heart rate, same length.
FTP comes from the best 20-minute average when the ride is long enough, from the
best 5-minute average for medium rides, and from a small learned regressor for
short efforts.  Returns [ftp, normalized_power, training_stress_score].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class FTPEstimator(nn.Module):
    def __init__(self, use_decoupling=True):
        super().__init__()
        self.use_decoupling = use_decoupling
        self.short_effort = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    @staticmethod
    def best_average(x, window):
        c = torch.cat([torch.zeros(1), torch.cumsum(x, 0)])
        return ((c[window:] - c[:-window]) / window).max()

    def forward(self, power, hr):
        n = power.shape[0]
        moving = (power > 5.0).float()
        if moving.mean() < 0.2:
            # parked with the unit on: nothing to analyse
            return torch.zeros(3)

        if n >= 1200:
            ftp = 0.95 * self.best_average(power, 1200)
        elif n >= 300:
            ftp = 0.85 * self.best_average(power, 300)
        else:
            feats = torch.stack([power.mean() / 300, power.max() / 1000, hr.mean() / 200, moving.mean()])
            ftp = 150.0 + 100.0 * torch.sigmoid(self.short_effort(feats)).squeeze(-1)

        if self.use_decoupling:  # static
            half = n // 2
            ef_first = power[:half].mean() / hr[:half].mean()
            ef_second = power[half:].mean() / hr[half:].mean()
            # aerobic decoupling: heart rate drifting up for the same power -> FTP was optimistic
            if (ef_first - ef_second) / ef_first > 0.05:
                ftp = ftp * 0.97

        if n >= 30:
            rolling = F.avg_pool1d(power.view(1, 1, -1), 30, stride=1).view(-1)
        else:
            rolling = power
        np_ = rolling.pow(4).mean().pow(0.25)
        intensity = np_ / ftp
        tss = n * np_ * intensity / (ftp * 3600.0) * 100.0
        return torch.stack([ftp, np_, tss])


def model():
    torch.manual_seed(4)
    return FTPEstimator().eval()


def _ride(n, base, seed, drift=0.0, coasting=0.1):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    p = base + 40 * torch.sin(t / 97.0) + 25 * torch.randn(n, generator=g)
    stopped = torch.rand(n, generator=g) < coasting
    p = torch.where(stopped, torch.zeros(n), p.clamp(min=20.0)).round()
    hr = 120 + 0.15 * p + drift * t / max(n, 1) + 2 * torch.randn(n, generator=g)
    return p, hr.round()


def example_inputs():
    return _ride(1500, 220.0, 1)


def dynamic_shapes():
    t = Dim("seconds", min=2, max=7200)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                    # 25 min: best 20-min FTP, steady HR (no decoupling)
        _ride(600, 250.0, 2),                # 10 min: best 5-min path; power fades in 2nd half -> decoupling penalty
        _ride(120, 300.0, 3),                # 2 min: learned short-effort regressor, rolling NP, no decoupling
        _ride(20, 280.0, 4),                 # 20 s sprint: shorter than the 30 s NP window (decoupling penalty)
        _ride(400, 200.0, 5, coasting=0.9),  # mostly stopped: early return
        _ride(1300, 210.0, 6, drift=30.0),   # HR drifts up 30 bpm: decoupling penalty
    ]
