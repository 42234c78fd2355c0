"""HPLC chromatogram peak picking and integration.

Baseline is estimated with a rolling minimum, noise with the MAD of the
baseline-corrected trace.  Candidate apexes are local maxima above S/N.  Each
apex is walked outwards until the signal falls to 5 % of its height; shoulders
that fall inside an already integrated peak and spikes narrower than a few
samples are skipped.  A small classifier assigns each peak to a compound class
from its shape features.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class PeakIntegrator(nn.Module):
    def __init__(self, n_classes=4, baseline_win=51, snr=8.0, min_width=4, max_peaks=6):
        super().__init__()
        self.baseline_win = baseline_win
        self.snr = snr
        self.min_width = min_width
        self.max_peaks = max_peaks
        self.edge_frac = 0.05
        self.classifier = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, n_classes))

    def baseline(self, y):
        pad = self.baseline_win // 2
        x = F.pad(y[None, None], (pad, pad), mode="replicate")
        rolling_min = -F.max_pool1d(-x, self.baseline_win, stride=1)
        return F.avg_pool1d(F.pad(rolling_min, (pad, pad), mode="replicate"), self.baseline_win, stride=1)[0, 0]

    def noise_level(self, s):
        d = s[1:] - s[:-1]
        mad = (d - d.median()).abs().median()
        return 1.4826 * mad / 1.4142 + 1e-6

    def walk(self, s, apex, level):
        n = s.shape[0]
        left = apex
        while left > 0 and s[left - 1] > level:
            left -= 1
        right = apex
        while right < n - 1 and s[right + 1] > level:
            right += 1
        return left, right

    def forward(self, y):
        s = y - self.baseline(y)
        thr = self.snr * self.noise_level(s)
        mid = s[1:-1]
        is_apex = (mid > s[:-2]) & (mid >= s[2:]) & (mid > thr)
        apexes = torch.nonzero(is_apex).flatten() + 1
        if apexes.numel() == 0:
            return torch.zeros(0, 4), torch.zeros(0, self.classifier[-1].out_features), torch.zeros(())

        rows = []
        last_right = -1
        for k in range(apexes.shape[0]):
            apex = int(apexes[k])
            if apex <= last_right:
                continue                              # shoulder of the previous peak
            height = s[apex]
            left, right = self.walk(s, apex, self.edge_frac * height)
            if right - left + 1 < self.min_width:
                continue                              # electronic spike
            area = s[left:right + 1].sum()
            rows.append(torch.stack([s.new_tensor(float(apex)), height,
                                     s.new_tensor(float(right - left + 1)), area]))
            last_right = right
            if len(rows) == self.max_peaks:
                break
        if not rows:
            return torch.zeros(0, 4), torch.zeros(0, self.classifier[-1].out_features), torch.zeros(())
        table = torch.stack(rows)
        feats = torch.stack([table[:, 0] / y.shape[0], table[:, 1].log1p(),
                             table[:, 2] / 20.0, table[:, 3].log1p()], 1)
        probs = self.classifier(feats).softmax(-1)
        return table, probs, table[:, 3].sum()


def model():
    torch.manual_seed(31)
    return PeakIntegrator().eval()


def _gen_chrom(n, peaks, seed, drift=0.0, spikes=()):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    y = 0.5 + drift * t / n + 0.003 * torch.randn(n, generator=g)
    for c, h, sigma in peaks:
        y = y + h * torch.exp(-0.5 * ((t - c) / sigma) ** 2)
    for i in spikes:
        y[i] += 1.0
    return y


def example_inputs():
    return (_gen_chrom(300, [(60, 1.0, 3.0), (150, 2.5, 4.0), (230, 0.6, 3.0)], 0, drift=0.2),)


def dynamic_shapes():
    return ({0: Dim("samples", min=32, max=1024)},)


def verify_inputs():
    return [
        example_inputs(),                                                        # three clean peaks on a drifting baseline
        (_gen_chrom(200, [], 1),),                                               # blank injection -> no apex, early return
        (_gen_chrom(120, [], 2, spikes=(40, 80)),),                              # only spikes -> all skipped, empty table
        (_gen_chrom(400, [(100, 2.0, 5.0), (112, 0.9, 2.0)], 3),),               # fused shoulder -> skipped inside previous peak
        (_gen_chrom(64, [(2, 1.5, 3.0), (61, 1.2, 3.0)], 4),),                   # peaks at both ends: walks stop at the edges
        (_gen_chrom(900, [(60 + 110 * i, 1.0 + 0.2 * i, 3.0) for i in range(8)], 5),),  # 8 peaks -> stops at max_peaks
        (_gen_chrom(250, [(125, 1.8, 4.0)], 6, spikes=(30,)),),                  # spike skipped, single peak kept
    ]
