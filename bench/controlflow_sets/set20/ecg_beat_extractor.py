"""ECG beat extractor: finds QRS complexes in a single-lead trace and embeds each beat.

Beats are rising edges above a threshold; beats inside the refractory period or
with too small an amplitude are skipped. Output: [K, 9] beat features (K may be 0).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rr_feature(pos, last_pos):
    """RR interval (in 100-sample units) to the previous kept beat, 0 for the first."""
    if last_pos < 0:
        return torch.zeros(1)
    return ((pos - last_pos).float() / 100.0).reshape(1)


class BeatExtractor(nn.Module):
    def __init__(self, thr=0.5, refractory=12, min_amp=0.8, half=8):
        super().__init__()
        self.thr, self.refractory, self.min_amp, self.half = thr, refractory, min_amp, half
        self.embed = nn.Linear(2 * half, 8)

    def forward(self, ecg):  # ecg: [1, T]
        x = ecg[0]
        above = x > self.thr
        rise = above[1:] & ~above[:-1]
        starts = rise.nonzero().squeeze(1) + 1
        n = rise.sum()
        padded = F.pad(x, (self.half, self.half))
        feats = []
        last = torch.tensor(-1)
        for i in range(int(n.item())):
            p = starts[i]
            if p - last < self.refractory:
                continue
            s = int(p.item())
            win = padded[s: s + 2 * self.half]
            if win.max() < self.min_amp:
                continue
            feats.append(torch.cat([torch.tanh(self.embed(win)), rr_feature(p, last)]))
            last = p
        if len(feats) == 0:
            return torch.zeros(0, 9)
        return torch.stack(feats)


def _ecg(T, centers, amps, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    x = 0.02 * torch.randn(T, generator=g)
    for c, a in zip(centers, amps):
        x = x + a * torch.exp(-((t - c) ** 2) / 8.0)
    return x.unsqueeze(0)


def model():
    torch.manual_seed(0)
    return BeatExtractor().eval()


def example_inputs():
    return (_ecg(160, [20, 70, 120], [1.2, 1.1, 1.3], 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=2, max=512)},)


def verify_inputs():
    return [
        (_ecg(40, [], [], 1),),                                  # flat: no beats
        (_ecg(300, [30, 40, 100, 170, 240], [1.2, 1.0, 0.7, 1.4, 1.1], 2),),  # refractory + low amplitude
        (_ecg(64, [30], [0.7], 3),),                             # one weak beat -> 0 rows
        (_ecg(90, [45], [1.5], 4),),                             # single beat
    ]
