"""Cabin turbulence alerting from an aircraft IMU (kind T).

Input: accelerometer samples (T, 3) in g at 25 Hz.  The vertical acceleration is split
into 1-second windows (for loop over T // 25), the RMS deviation from 1 g is computed per
window, and the peak RMS is graded: severe turbulence returns immediately (seat-belt sign
now, no forecast), moderate / light run a small GRU that forecasts the next minute.

constructs: 1 (if/elif/else on tensor), 2 (return inside a branch; same variable assigned
            in each branch), 5 (for over a count derived from the dynamic T, append + stack)
"""
import torch
import torch.nn as nn


class TurbulenceAlert(nn.Module):
    def __init__(self, rate_hz=25, severe_g=0.5, moderate_g=0.2, hidden=16):
        super().__init__()
        self.rate_hz = rate_hz
        self.severe_g = severe_g
        self.moderate_g = moderate_g
        self.gru = nn.GRU(3, hidden, batch_first=True)
        self.forecast = nn.Linear(hidden, 1)

    def forward(self, accel):
        n_windows = accel.shape[0] // self.rate_hz
        feats = []
        for i in range(n_windows):
            w = accel[i * self.rate_hz:(i + 1) * self.rate_hz]
            vert = w[:, 2] - 1.0
            lateral = w[:, :2].norm(dim=1)
            feats.append(torch.stack([vert.pow(2).mean().sqrt(), vert.abs().max(), lateral.mean()]))
        feats = torch.stack(feats)          # (n_windows, 3)
        rms = feats[:, 0]
        peak = rms.max()

        if peak > self.severe_g:
            level = torch.tensor(3)
            return rms, level, torch.ones(1)
        elif peak > self.moderate_g:
            level = torch.tensor(2)
        else:
            level = torch.tensor(1)
        out, _ = self.gru(feats.unsqueeze(0))
        next_minute = torch.sigmoid(self.forecast(out[0, -1]))
        return rms, level, next_minute


def model():
    torch.manual_seed(308)
    return TurbulenceAlert().eval()


def _flight(seconds, seed, bumps=(), extra=0):
    """bumps: (second, amplitude_g) sinusoidal vertical bumps lasting one second."""
    g = torch.Generator().manual_seed(seed)
    n = seconds * 25 + extra
    a = 0.02 * torch.randn(n, 3, generator=g)
    a[:, 2] += 1.0
    t = torch.arange(25, dtype=torch.float32)
    for s, amp in bumps:
        a[s * 25:(s + 1) * 25, 2] += amp * torch.sin(2 * torch.pi * 3 * t / 25)
    return (a,)


def example_inputs():
    return _flight(10, 0, bumps=[(4, 0.45)])            # moderate


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=50, max=6000)},)


def verify_inputs():
    return [
        example_inputs(),                                  # 10 windows, peak RMS ~0.32 g -> moderate, forecast
        _flight(2, 1),                                     # 2 windows (minimum), smooth air -> light, forecast
        _flight(30, 2, bumps=[(3, 0.3), (17, 1.2)], extra=13),   # 30 windows (+13 leftover samples), 0.85 g -> severe, early return
        _flight(120, 3, extra=24),                         # 2 minutes calm -> light
    ]
