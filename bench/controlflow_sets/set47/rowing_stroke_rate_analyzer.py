"""Rowing boat accelerometer analyser (stroke probability + stroke-rate estimate).

Constructs: 1 (power threshold), 2 (early return when stationary), 7 (helper
with a size branch), 8 (branch on the dynamic length), 9 (loop over an
nn.ModuleList).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def detrend(sig):
    # sig: [T]
    if sig.shape[0] > 64:
        trend = F.avg_pool1d(sig.view(1, 1, -1), 33, stride=1, padding=16,
                             count_include_pad=False).view(-1)
        return sig - trend
    return sig - sig.mean()


class StrokeAnalyzer(nn.Module):
    def __init__(self, channels=8, depth=3):
        super().__init__()
        self.inp = nn.Conv1d(3, channels, 5, padding=2)
        self.blocks = nn.ModuleList([nn.Conv1d(channels, channels, 5, padding=2) for _ in range(depth)])
        self.prob = nn.Conv1d(channels, 1, 1)
        self.rate = nn.Linear(channels, 1)

    def forward(self, acc):
        # acc: [T, 3] (surge, sway, heave) in g
        surge = detrend(acc[:, 0])
        if surge.std() < 0.05:
            # boat at rest: no strokes
            return torch.zeros(acc.shape[0]), torch.zeros(1)
        x = torch.cat([surge.view(1, -1), acc[:, 1:].t()], 0).unsqueeze(0)
        h = torch.relu(self.inp(x))
        for blk in self.blocks:
            h = h + torch.relu(blk(h))
        p = torch.sigmoid(self.prob(h)).view(-1)
        spm = 20.0 + 15.0 * torch.sigmoid(self.rate(h.mean(-1))).view(1)
        return p, spm


def model():
    torch.manual_seed(3)
    return StrokeAnalyzer().eval()


def _acc(T, amp, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    a = 0.01 * torch.randn(T, 3, generator=g)
    a[:, 0] += amp * torch.sin(2 * torch.pi * t / 25.0) + 0.002 * t
    return a


def example_inputs():
    return (_acc(48, 1.0, 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=16, max=256)},)


def verify_inputs():
    return [
        example_inputs(),         # short, mean-detrend, rowing
        (_acc(160, 1.0, 1),),     # long, moving-average detrend, rowing
        (_acc(40, 0.0, 2),),      # short, stationary -> early return
        (_acc(200, 0.0, 3),),     # long, stationary -> early return
        (_acc(16, 0.8, 4),),      # min size
        (_acc(256, 1.2, 5),),     # max size
    ]
