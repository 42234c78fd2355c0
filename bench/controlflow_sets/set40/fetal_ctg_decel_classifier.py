"""Cardiotocography (CTG): classify the deceleration of the fetal heart rate
relative to a uterine contraction as none / early / late / variable, and give
a learned probability vector alongside the rule-based category.

Kind T; constructs 1, 2, 7, 8, 9."""
import torch
import torch.nn as nn
from torch.export import Dim


def estimate_baseline(fhr):
    """FHR baseline in bpm: median of 1-minute windows on long traces, mean on short ones."""
    if fhr.shape[0] >= 120:
        windows = fhr.unfold(0, 60, 60)
        return windows.median(dim=1).values.mean()
    return fhr.mean()


class DecelClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(402)
        self.encoder = nn.Sequential(
            nn.Conv1d(2, 8, kernel_size=5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.head = nn.Linear(8 + 3, 4)
        self.min_valid = 0.7       # fraction of samples with signal
        self.min_depth = 15.0      # bpm below baseline to count as a deceleration
        self.max_early_lag = 3.5   # samples between contraction peak and FHR nadir

    def forward(self, fhr, uc):
        # fhr: [T] fetal heart rate (bpm, 0 = signal loss), uc: [T] uterine pressure (mmHg)
        valid = fhr > 50
        if valid.float().mean().item() < self.min_valid:
            # too much signal loss, the trace cannot be interpreted
            return torch.zeros(4), torch.tensor(-1)
        fhr = torch.where(valid, fhr, fhr[valid].mean())
        baseline = estimate_baseline(fhr)
        nadir = torch.argmin(fhr)
        peak = torch.argmax(uc)
        depth = baseline - fhr[nadir]
        lag = (nadir - peak).float()

        x = torch.stack([(fhr - baseline) / 20, uc / 50])[None]
        feats = torch.cat([self.encoder(x)[0, :, 0], torch.stack([depth / 30, lag / 20, baseline / 150])])
        logits = self.head(feats)
        if self.training:  # pragma: no cover
            return logits, torch.tensor(-1)      # raw logits for the cross-entropy loss
        probs = torch.softmax(logits, dim=-1)

        if depth < self.min_depth:
            category = 0                 # no deceleration
        elif lag.abs() <= self.max_early_lag:
            category = 1                 # early: mirrors the contraction
        elif lag > 0:
            category = 2                 # late: nadir well after the contraction peak
        else:
            category = 3                 # variable: not tied to the contraction
        return probs, torch.tensor(category)


def model():
    return DecelClassifier().eval()


def _trace(T, dip_depth, dip_at, uc_at, seed, loss_frac=0.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    fhr = 140 + 0.6 * torch.rand(T, generator=g) - dip_depth * torch.exp(-((t - dip_at) / 4.0) ** 2)
    uc = 10 + 40 * torch.exp(-((t - uc_at) / 6.0) ** 2) + torch.rand(T, generator=g)
    if loss_frac > 0:
        fhr[: int(T * loss_frac)] = 0.0
    return fhr, uc


def example_inputs():
    return _trace(64, 30.0, 40, 30, 1)


def dynamic_shapes():
    t = Dim("samples", min=16, max=256)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                       # mean baseline (T<120), deep dip 10 samples after peak -> late
        _trace(64, 30.0, 30, 30, 2, 0.5),       # half the trace lost -> early return (uninterpretable)
        _trace(16, 3.0, 8, 8, 3),               # min length, shallow dip -> no deceleration
        _trace(256, 25.0, 100, 101, 4),         # max length, median baseline, nadir 1 sample before peak -> early
        _trace(150, 35.0, 60, 80, 5),           # median baseline, nadir 20 samples before peak -> variable
        _trace(119, 20.0, 70, 60, 6, 0.2),      # some signal loss filled in, mean baseline, late
    ]
