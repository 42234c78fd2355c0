"""Predictive-maintenance anomaly detector for motor vibration (MCU / edge gateway).

A 1-D conv autoencoder reconstructs the signal (padded up to a multiple of the window
when needed, a branch on the dynamic length). If the overall error is low the signal is
declared healthy and returned early with no segments. Otherwise each window's error is
scanned (`for` over a dynamic count, `continue` on normal windows) and consecutive
anomalous windows are merged into segments by a small state machine.
Outputs: anomaly score (1,), segments (K, 2) as [start_sample, end_sample) floats (K data-dependent, may be 0).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class ConvAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv1d(1, 8, 7, stride=2, padding=3),
            nn.ReLU(),
            nn.Conv1d(8, 16, 7, stride=2, padding=3),
            nn.ReLU(),
        )
        self.dec = nn.Sequential(
            nn.ConvTranspose1d(16, 8, 4, stride=2, padding=1),
            nn.ReLU(),
            nn.ConvTranspose1d(8, 1, 4, stride=2, padding=1),
        )

    def forward(self, x):
        return self.dec(self.enc(x))


class VibrationAnomaly(nn.Module):
    def __init__(self, window=64, healthy_thr=0.5, window_thr=0.8):
        super().__init__()
        self.ae = ConvAE()
        self.window = window
        self.healthy_thr = healthy_thr
        self.window_thr = window_thr

    def forward(self, signal):
        t = signal.shape[-1]
        x = signal
        if t % self.window != 0:
            x = F.pad(x, (0, self.window - t % self.window))
        recon = self.ae(x)
        err = (recon - x).pow(2)[0, 0]
        score = err[:t].mean().view(1)
        if score.item() < self.healthy_thr:
            return score, torch.zeros(0, 2)
        werr = err.view(-1, self.window).mean(1)
        segments = []
        seg_start = -1
        for w in range(werr.shape[0]):
            if werr[w] < self.window_thr:
                if seg_start >= 0:
                    segments.append(
                        torch.tensor([seg_start * self.window, w * self.window], dtype=torch.float32)
                    )
                    seg_start = -1
                continue
            if seg_start < 0:
                seg_start = w
        if seg_start >= 0:
            segments.append(
                torch.tensor(
                    [seg_start * self.window, min(werr.shape[0] * self.window, t)], dtype=torch.float32
                )
            )
        if len(segments) == 0:
            return score, torch.zeros(0, 2)
        return score, torch.stack(segments)


def model():
    torch.manual_seed(0)
    return VibrationAnomaly().eval()


def _sig(t, seed, bursts=(), amp=0.3):
    g = torch.Generator().manual_seed(seed)
    n = torch.arange(t, dtype=torch.float32)
    x = amp * torch.sin(2 * torch.pi * n / 25.0) + 0.05 * torch.randn(t, generator=g)
    for a, b, s in bursts:
        x[a:b] += s * torch.randn(b - a, generator=g)
    return (x.view(1, 1, t),)


def example_inputs():
    return _sig(1024, 1, bursts=((300, 420, 3.0),))


def dynamic_shapes():
    return {"signal": {2: Dim("samples", min=128, max=8192)}}


def verify_inputs():
    return [
        _sig(512, 2),  # healthy -> early return
        _sig(
            1000, 3, bursts=((0, 100, 3.0), (600, 700, 3.0), (930, 1000, 3.0))
        ),  # padded, 3 segments, open at end
        _sig(640, 4, amp=1.15),  # elevated but no window above thr
    ]
