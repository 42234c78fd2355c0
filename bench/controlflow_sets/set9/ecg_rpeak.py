"""Wearable ECG R-peak detector and heart-rate estimator (Pan-Tompkins style, learned denoiser).

A small conv denoiser cleans the raw lead, then derivative, squaring and moving-window
integration produce an energy envelope. Local-maximum candidates are visited in order
(`for` over a data-dependent count) with adaptive signal/noise levels: candidates in
the refractory period are skipped (`continue`), accepted peaks update the signal
level, rejected ones the noise level. When the gap since the last beat exceeds 1.66x
the mean RR interval, a search-back over the rejected candidates recovers a missed
beat (nested loop with `break`). Fewer than two beats -> heart rate 0 (early return).
Outputs: peak sample indices (K,) int64 and heart rate in bpm (1,).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class EcgPeaks(nn.Module):
    def __init__(self, fs=250):
        super().__init__()
        self.fs = fs
        self.denoise = nn.Sequential(nn.Conv1d(1, 4, 9, padding=4), nn.Tanh(), nn.Conv1d(4, 1, 9, padding=4))
        self.refractory = int(0.25 * fs)
        self.win = int(0.15 * fs)

    def envelope(self, ecg):
        x = ecg.view(1, 1, -1)
        x = x + self.denoise(x)
        d = x[..., 1:] - x[..., :-1]
        e = F.avg_pool1d(F.pad(d * d, (self.win // 2, self.win - 1 - self.win // 2)), self.win, stride=1)
        return e.view(-1)

    def forward(self, ecg):
        env = self.envelope(ecg)
        is_max = (env[1:-1] > env[:-2]) & (env[1:-1] >= env[2:]) & (env[1:-1] > 0.05 * env.max())
        cand = torch.nonzero(is_max).view(-1) + 1
        spk = env[: 2 * self.fs].max() * 0.5
        npk = env[: 2 * self.fs].mean() * 0.5
        peaks, rejected = [], []
        last = -self.refractory
        for c in range(cand.shape[0]):
            i = int(cand[c])
            if i - last < self.refractory:
                continue
            thr = npk + 0.25 * (spk - npk)
            if len(peaks) >= 2:
                rr_mean = (peaks[-1] - peaks[0]) / (len(peaks) - 1)
                if i - last > 1.66 * rr_mean:
                    # search back for a missed beat among rejected candidates
                    for j in reversed(rejected):
                        if j - last >= self.refractory and i - j >= self.refractory and env[j] > 0.5 * thr:
                            peaks.append(j)
                            spk = 0.25 * env[j] + 0.75 * spk
                            break
            if env[i] > thr:
                spk = 0.125 * env[i] + 0.875 * spk
                peaks.append(i)
                last = i
                rejected = []
            else:
                npk = 0.125 * env[i] + 0.875 * npk
                rejected.append(i)
        if len(peaks) < 2:
            return torch.tensor(peaks, dtype=torch.long).view(-1), torch.zeros(1)
        p = torch.tensor(peaks, dtype=torch.float32)
        rr = (p[1:] - p[:-1]).mean() / self.fs
        return p.long(), (60.0 / rr).view(1)


def model():
    torch.manual_seed(0)
    m = EcgPeaks()
    with torch.no_grad():
        m.denoise[2].weight.mul_(0.1)
    return m.eval()


def _ecg(seconds, bpm, seed, drop=(), weak=()):
    fs = 250
    g = torch.Generator().manual_seed(seed)
    n = int(seconds * fs)
    t = torch.arange(n, dtype=torch.float32) / fs
    x = 0.1 * torch.sin(2 * torch.pi * 0.3 * t) + 0.02 * torch.randn(n, generator=g)
    period = 60.0 / bpm
    k = 0
    beat = 0.4
    while beat < seconds - 0.2:
        amp = 0.0 if k in drop else (0.35 if k in weak else 1.0)
        x = (
            x
            + amp * torch.exp(-(((t - beat) / 0.012) ** 2))
            - 0.15 * amp * torch.exp(-(((t - beat - 0.03) / 0.02) ** 2))
        )
        beat += period
        k += 1
    return (x.view(1, n),)


def example_inputs():
    return _ecg(6, 72, 1)


def dynamic_shapes():
    return {"ecg": {1: Dim("samples", min=500, max=7500)}}


def verify_inputs():
    return [
        _ecg(10, 60, 2, weak=(5,)),  # a weak beat recovered by search-back
        _ecg(2, 40, 3),  # 2 s, single beat -> hr 0
        _ecg(8, 110, 4, drop=(4,)),  # missing beat, fast rhythm
        (0.01 * torch.randn(1, 600, generator=torch.Generator().manual_seed(5)),),  # noise only
    ]
