"""Post-op knee rehabilitation: range-of-motion progress from a wearable goniometer.

Each session is a trace of knee flexion angles (degrees).  Peak flexion per
session is taken from a smoothed trace when the session is long enough.  The
course of peaks decides the rehab phase (discharge / plateau -> refer back to
the surgeon / progressing), and a small residual MLP estimates remaining
weeks from summary features.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualBlock(nn.Module):
    def __init__(self, dim, residual):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.residual = residual

    def forward(self, x):
        h = torch.relu(self.lin(x))
        return x + h if self.residual else h


class RomTracker(nn.Module):
    def __init__(self, smooth_from=50, discharge_deg=120.0, plateau_deg=2.0, hidden=16):
        super().__init__()
        self.smooth_from = smooth_from
        self.discharge_deg = discharge_deg
        self.plateau_deg = plateau_deg
        self.inp = nn.Linear(4, hidden)
        self.blocks = nn.ModuleList([ResidualBlock(hidden, residual=(i > 0)) for i in range(3)])
        self.out = nn.Linear(hidden, 1)

    def _session_peak(self, trace):
        if trace.shape[0] >= self.smooth_from:
            trace = F.avg_pool1d(trace[None, None], kernel_size=5, stride=1).flatten()
        return trace.max()

    def forward(self, angles):
        peaks = torch.stack([self._session_peak(angles[s]) for s in range(angles.shape[0])])
        latest = peaks[-1]
        if angles.shape[0] >= 3:
            recent_gain = peaks[-1] - peaks[-3]
        else:
            recent_gain = peaks[-1] - peaks[0]

        if latest >= self.discharge_deg:
            phase = torch.tensor(2)          # goal reached: discharge to home programme
        elif recent_gain < self.plateau_deg:
            phase = torch.tensor(1)          # plateau: flag for review
        else:
            phase = torch.tensor(0)          # progressing

        feats = torch.stack([latest / 135.0, recent_gain / 10.0, peaks.mean() / 135.0,
                             torch.tensor(float(angles.shape[0])) / 30.0])
        h = torch.relu(self.inp(feats))
        for blk in self.blocks:
            h = blk(h)
        weeks = F.softplus(self.out(h))
        return peaks, phase, weeks


def model():
    torch.manual_seed(64)
    return RomTracker().eval()


def _sessions(peaks, n_samples, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 6.2832 * 3, n_samples)
    rows = []
    for p in peaks:
        # three flexion repetitions per session, 5 deg minimum flexion, sensor jitter
        rows.append(5.0 + (p - 5.0) * 0.5 * (1 - torch.cos(t)) + 0.3 * torch.randn(n_samples, generator=g))
    return torch.stack(rows)


def example_inputs():
    return (_sessions([70.0, 78.0, 85.0, 93.0, 100.0], 80, seed=0),)


def dynamic_shapes():
    s = torch.export.Dim("sessions", min=2, max=30)
    t = torch.export.Dim("samples", min=8, max=600)
    return ({0: s, 1: t},)


def verify_inputs():
    return [
        example_inputs(),                                          # long traces -> smoothing; >= 3 sessions; progressing
        (_sessions([60.0, 75.0], 40, seed=1),),                    # short traces (no smoothing); only 2 sessions; progressing
        (_sessions([110.0, 118.0, 126.0], 120, seed=2),),          # peak >= 120 -> discharge
        (_sessions([90.0, 95.0, 96.0, 96.5, 96.8], 30, seed=3),),  # plateau (< 2 deg over last 3 sessions)
        (_sessions([80.0, 80.5], 600, seed=4),),                   # 2 sessions, plateau, longest traces
    ]
