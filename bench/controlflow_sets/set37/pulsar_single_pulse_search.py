"""Single-pulse search in a radio-telescope filterbank (FRB / pulsar giant pulses).

The filterbank is [channels, time samples], highest frequency first.  For every
trial dispersion measure the channels are shifted by the cold-plasma delay and
summed; a boxcar search over a few widths gives the S/N.  Detections are kept,
a very bright one ends the DM sweep, and individual pulses are then peeled off
the best dedispersed series one at a time.
"""
import math

import torch
import torch.nn.functional as F
import torch.nn as nn
from torch.export import Dim


class SinglePulseSearch(nn.Module):
    def __init__(self):
        super().__init__()
        self.dm_trials = [0.0, 25.0, 50.0, 75.0, 100.0, 125.0]   # pc / cm^3
        self.widths = [1, 2, 4, 8, 16]                          # samples
        self.f_top, self.chan_bw = 1500.0, 10.0                 # MHz
        self.k_dm = 4.148808e6                                  # ms * MHz^2, 1 ms samples
        self.detect_snr = 7.0
        self.bright_snr = 40.0
        self.pulse_snr = 5.0
        self.max_pulses = 4
        self.mask_half = 10

    def delay_samples(self, c, dm):
        f = self.f_top - c * self.chan_bw
        return int(round(self.k_dm * dm * (f ** -2 - self.f_top ** -2)))

    def dedisperse(self, fb, dm):
        out = torch.zeros_like(fb[0])
        for c in range(fb.shape[0]):
            out = out + torch.roll(fb[c], -self.delay_samples(c, dm))
        # robust re-normalisation of the dedispersed series
        med = out.median()
        return (out - med) / (1.4826 * (out - med).abs().median() + 1e-6)

    def boxcar_snr(self, series):
        best = torch.zeros(())
        best_w = 0
        for w in self.widths:
            s = F.avg_pool1d(series[None, None], w, stride=1)[0, 0].max() * math.sqrt(w)
            if s < best:
                break                       # S/N peaked at the previous width
            best, best_w = s, w
        return best, best_w

    def peel_pulses(self, series):
        res = series.clone()
        idx = torch.arange(series.shape[0])
        pulses = []
        while res.max() > self.pulse_snr and len(pulses) < self.max_pulses:
            p = res.argmax()
            pulses.append(torch.stack([p.to(series.dtype), res[p]]))
            res = torch.where((idx - p).abs() <= self.mask_half, torch.zeros_like(res), res)
        return pulses

    def forward(self, fb):
        fb = (fb - fb.mean(1, keepdim=True)) / (fb.std(1, keepdim=True) + 1e-6)
        cands = []
        best_snr = torch.zeros(())
        best_series = torch.zeros_like(fb[0])
        for dm in self.dm_trials:
            series = self.dedisperse(fb, dm)
            snr, width = self.boxcar_snr(series)
            if snr > self.detect_snr:
                cands.append(torch.stack([fb.new_tensor(dm), snr, fb.new_tensor(float(width))]))
                if snr > best_snr:
                    best_snr, best_series = snr, series
                if snr > self.bright_snr:
                    break
        if not cands:
            return torch.zeros(0, 3), torch.zeros(0, 2)
        pulses = self.peel_pulses(best_series)
        if not pulses:
            return torch.stack(cands), torch.zeros(0, 2)
        return torch.stack(cands), torch.stack(pulses)


def model():
    torch.manual_seed(0)
    return SinglePulseSearch().eval()


def _gen_filterbank(n_chan, n_t, seed, pulses=()):
    """pulses: (arrival sample at top channel, dm, amplitude per channel, width)."""
    g = torch.Generator().manual_seed(seed)
    fb = torch.randn(n_chan, n_t, generator=g)
    helper = SinglePulseSearch()
    t = torch.arange(n_t, dtype=torch.float32)
    for t0, dm, amp, w in pulses:
        for c in range(n_chan):
            d = helper.delay_samples(c, dm)
            fb[c] += amp * ((t >= t0 + d) & (t < t0 + d + w)).float()
    return fb


def example_inputs():
    return (_gen_filterbank(16, 256, 0, pulses=[(60, 50.0, 1.5, 4), (180, 50.0, 1.2, 4)]),)


def dynamic_shapes():
    return ({0: Dim("channels", min=2, max=32), 1: Dim("samples", min=64, max=1024)},)


def verify_inputs():
    return [
        example_inputs(),                                                         # two pulses at DM 50, several DMs detect
        (_gen_filterbank(8, 128, 1),),                                            # noise only -> no candidate, early return
        (_gen_filterbank(32, 512, 2, pulses=[(100, 25.0, 4.0, 8)]),),             # very bright pulse -> DM sweep breaks
        (_gen_filterbank(4, 96, 3, pulses=[(40, 0.0, 2.0, 16)]),),                # wide faint pulse: boxcar detects, no single sample > 5
        (_gen_filterbank(24, 700, 4, pulses=[(50 + 120 * i, 100.0, 1.6, 2) for i in range(5)]),),  # 5 pulses -> peel stops at 4
    ]
