"""Dendrochronology cross-dating: place an undated ring-width series against a
dated master chronology.

sample: [N] ring widths of the undated core (N dynamic),
master: [M] master chronology ring indices (M dynamic, may contain zero-filled
gaps where no data exists).
Both series are detrended (ratio to a running mean; short series use the
global mean), the sample is slid along the master and the Student t of the
correlation at each offset is kept.  If no offset is convincing the core is
checked half by half (a missing or false ring splits the core into two dated
pieces).  A learned head gives a confidence.
Returns (best offset, best t, offsets of the two halves [2], confidence).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def detrend(x, window=15):
    if x.shape[0] < 2 * window:
        return x / x.mean().clamp_min(1e-6)
    trend = F.avg_pool1d(F.pad(x.view(1, 1, -1), (window // 2, window // 2), mode="replicate"), window, 1).view(-1)
    return x / trend.clamp_min(1e-3)


def correlation(a, b):
    a = a - a.mean()
    b = b - b.mean()
    den = torch.sqrt((a * a).sum() * (b * b).sum())
    if den < 1e-8:
        return torch.zeros(())
    return (a * b).sum() / den


class CrossDater(nn.Module):
    def __init__(self, min_overlap=20, t_crit=10.0, seg_r=0.7):
        super().__init__()
        self.min_overlap = min_overlap
        self.t_crit = t_crit
        self.seg_r = seg_r
        self.confidence = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def best_offset(self, s, m, valid, max_missing=5):
        n = s.shape[0]
        best_t, best_off = torch.tensor(-1e9), -1
        for off in range(m.shape[0] - n + 1):
            if valid[off:off + n].sum() < n - max_missing:
                continue  # window runs into a gap of the master chronology
            r = correlation(s, m[off:off + n])
            t = r * math.sqrt(n - 2) / torch.sqrt((1 - r * r).clamp_min(1e-6))
            if t > best_t:
                best_t, best_off = t, off
        return best_off, best_t

    def forward(self, sample, master):
        n, m = sample.shape[0], master.shape[0]
        if n > m or n < self.min_overlap:
            return torch.tensor(-1.0), torch.zeros(()), torch.full((2,), -1.0), torch.zeros(())

        s = detrend(sample)
        valid = master > 0.05
        mref = torch.where(valid, detrend(master.clamp_min(1e-3)), torch.zeros_like(master))
        off, t = self.best_offset(s, mref, valid)

        halves = torch.full((2,), -1.0)
        if t < self.t_crit:
            half = n // 2
            for k in range(2):
                part = s[k * half:(k + 1) * half]
                for o in range(m - half + 1):
                    if correlation(part, mref[o:o + half]) > self.seg_r:
                        halves[k] = float(o)
                        break
        conf = torch.sigmoid(self.confidence(torch.stack([t / 10, torch.tensor(n / 100), (halves >= 0).float().mean()])))
        return torch.tensor(float(off)), t, halves, conf.squeeze(0)


def model():
    torch.manual_seed(41)
    return CrossDater().eval()


def _climate(years, seed):
    g = torch.Generator().manual_seed(seed)
    signal = torch.randn(years, generator=g)
    age_trend = 2.0 * torch.exp(-torch.arange(years, dtype=torch.float32) / 80.0) + 0.5
    return signal, age_trend, g


def _master(years=160, seed=0, gap=None):
    signal, trend, g = _climate(years, seed)
    widths = trend * (1.0 + 0.25 * signal) + 0.02 * torch.rand(years, generator=g)
    if gap is not None:
        widths[gap[0]:gap[1]] = 0.0
    return widths


def _core(start, n, seed=0, noise=0.1, missing_ring=None, other_seed=None):
    signal, _, g = _climate(400, seed)
    if other_seed is not None:  # a tree from somewhere else entirely
        signal, _, g = _climate(400, other_seed)
    s = signal[start:start + n + 1]
    if missing_ring is not None:  # one ring absent: the second half is shifted by a year
        s = torch.cat([s[:missing_ring], s[missing_ring + 1:]])
    s = s[:n]
    own_trend = 1.5 * torch.exp(-torch.arange(n, dtype=torch.float32) / 40.0) + 0.6
    return own_trend * (1.0 + 0.25 * s) + noise * torch.rand(n, generator=g)


def example_inputs():
    return (_core(50, 60), _master())


def dynamic_shapes():
    return ({0: Dim("rings", min=2, max=400)}, {0: Dim("years", min=2, max=2000)})


def verify_inputs():
    return [
        example_inputs(),                                    # clean match at offset 50: strong t, halves not needed
        (_core(50, 60), _master(gap=(5, 30))),               # master has a 25-year gap: offsets overlapping it skipped
        (_core(0, 10), _master()),                           # core shorter than min overlap: early return
        (_core(0, 200), _master()),                          # core longer than the master: early return
        (_core(20, 80, noise=0.2, missing_ring=40), _master()),  # missing ring: weak whole-core t,
                                                             # both halves date separately (break in the scan)
        (_core(100, 25), _master()),                         # short core (global-mean detrend), dated directly
        (_core(30, 60, other_seed=99), _master(gap=(60, 100))),  # unrelated tree: halves scanned to the end without a
                                                             # match; all-zero gap windows give zero correlation
    ]
