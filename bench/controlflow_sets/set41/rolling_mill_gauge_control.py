"""Automatic gauge control (AGC) for a two-stand tandem cold-rolling mill.

Each stand uses the gaugemeter equation  h = (M*gap + Q*H) / (M + Q)  with a
learned plasticity Q(H, hardness) and iteratively trims the roll gap until the
exit thickness of every strip segment is within tolerance, giving up when the
iteration budget is spent or when a roll gap reaches its mechanical stop.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class MillStand(nn.Module):
    def __init__(self, target, modulus=5000.0, gain=0.4, tol=0.004, max_iter=8, min_gap=0.4):
        super().__init__()
        self.target = target
        self.modulus = modulus
        self.gain = gain
        self.tol = tol
        self.max_iter = max_iter
        self.min_gap = min_gap
        self.plasticity = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, entry, hardness):
        feats = torch.stack([entry / 5.0, hardness, (entry - self.target) / entry], dim=1)
        q = 1500.0 + 1000.0 * torch.sigmoid(self.plasticity(feats).squeeze(1))  # kN/mm
        m = self.modulus

        gap = torch.full_like(entry, self.target)
        exit_h = (m * gap + q * entry) / (m + q)
        err = exit_h - self.target
        it = 0
        while err.abs().max() > self.tol and it < self.max_iter:
            gap = (gap - self.gain * (m + q) / m * err).clamp(min=self.min_gap)
            exit_h = (m * gap + q * entry) / (m + q)
            err = exit_h - self.target
            it += 1
            if (gap <= self.min_gap).any():
                break  # a segment is at the mechanical stop: stand saturated
        return exit_h, gap, torch.tensor(it)


class TandemMill(nn.Module):
    def __init__(self, schedule=(2.4, 2.0), work_hardening=1.08):
        super().__init__()
        self.stands = nn.ModuleList([MillStand(t) for t in schedule])
        self.work_hardening = work_hardening

    def forward(self, entry, hardness):
        h = entry
        gaps, iters = [], []
        for stand in self.stands:
            h, gap, it = stand(h, hardness)
            gaps.append(gap)
            iters.append(it)
            hardness = hardness * self.work_hardening
        return h, torch.stack(gaps), torch.stack(iters)


def model():
    torch.manual_seed(3)
    return TandemMill().eval()


def _coil(n, thickness, wedge=0.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    entry = thickness + wedge * torch.linspace(-1.0, 1.0, n)
    hardness = 0.4 + 0.2 * torch.rand(n, generator=g)
    return entry, hardness


def example_inputs():
    return _coil(16, 2.8, 0.02, seed=1)


def dynamic_shapes():
    n = Dim("segments", min=2, max=512)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),             # both stands iterate several times and converge, no saturation
        _coil(8, 2.405, 0.0, seed=2),  # stand 1 already on gauge: while runs 0 times; stand 2 iterates
        _coil(5, 2.42, 0.0, seed=3),   # stand 1 converges after exactly 1 iteration
        _coil(12, 4.0, 0.05, seed=4),  # large reduction: iteration budget (max_iter) exhausted on stand 1
        _coil(6, 12.0, 0.1, seed=5),   # heavy plate: gap hits mechanical stop -> break (saturated)
        _coil(2, 3.1, 0.0, seed=6),    # minimum number of segments
    ]
