"""Low-latency gravitational-wave burst trigger with a chirp template bank.

The strain segment is decimated when it is long, whitened (zero mean, unit
variance) and correlated with a small bank of unit-norm chirp templates (a
ModuleList of fixed Conv1d filters).  A trigger fires when the best matched-
filter SNR crosses the threshold, unless a glitch veto applies: loud,
short instrumental transients produce very large whitened samples but only a
moderate matched-filter SNR.
"""
import math

import torch
import torch.nn as nn


def chirp(n, f0, f1):
    t = torch.linspace(0.0, 1.0, n)
    phase = 2 * math.pi * (f0 * t + 0.5 * (f1 - f0) * t * t)
    w = torch.sin(phase) * torch.hann_window(n, periodic=False)
    return w / w.norm()


class GWTrigger(nn.Module):
    def __init__(self, template_len=48, bank=((2.0, 6.0), (3.0, 10.0), (4.0, 14.0)),
                 snr_threshold=7.0, glitch_level=7.0, max_len=1024):
        super().__init__()
        self.snr_threshold = snr_threshold
        self.glitch_level = glitch_level
        self.max_len = max_len
        self.templates = nn.ModuleList()
        for f0, f1 in bank:
            conv = nn.Conv1d(1, 1, template_len, bias=False)
            with torch.no_grad():
                conv.weight.copy_(chirp(template_len, f0, f1).view(1, 1, -1))
            self.templates.append(conv)

    def whiten(self, strain):
        if strain.shape[0] > self.max_len:
            strain = 0.5 * (strain[0::2][: strain.shape[0] // 2] + strain[1::2][: strain.shape[0] // 2])
        x = strain - strain.mean()
        return x / x.std()

    def forward(self, strain):
        x = self.whiten(strain)
        snrs = []
        for tmpl in self.templates:
            snrs.append(tmpl(x.view(1, 1, -1)).abs().max())
        snrs = torch.stack(snrs)
        best = snrs.max()
        if best < self.snr_threshold:
            return torch.tensor(0.0), snrs
        if x.abs().max() > self.glitch_level and best < 2 * self.snr_threshold:
            return torch.tensor(-1.0), snrs
        return best, snrs


def model():
    torch.manual_seed(1001)
    return GWTrigger().eval()


def _segment(n, seed, inject=None, amp=0.0, at=0.5, glitch=0.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, generator=g)
    if inject is not None:
        s = chirp(48, *inject)
        i = int(at * (n - 48))
        x[i:i + 48] += amp * s
    if glitch:
        i = int(0.3 * n)
        blip = torch.tensor([0.4, 1.0, 0.8, -0.5, -1.0, -0.6])
        x[i:i + 6] += blip * glitch
    return x


def example_inputs():
    return (_segment(512, 1, inject=(3.0, 10.0), amp=12.0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=64, max=4096)},)


def verify_inputs():
    return [
        # example: clear chirp injection -> trigger (best SNR returned)
        example_inputs(),
        # Gaussian noise only -> no trigger
        (_segment(300, 2),),
        # loud 6-sample 'blip' glitch: SNR above threshold but below 2x, huge whitened
        # sample -> vetoed
        (_segment(256, 3, glitch=20.0),),
        # long segment (decimated), very strong chirp -> trigger; loud enough that its
        # whitened peak also exceeds the glitch level but the SNR clears 2x threshold
        (_segment(2048, 4, inject=(2.0, 6.0), amp=80.0, at=0.7),),
        # long noise-only segment (decimated) -> no trigger
        (_segment(1500, 5),),
    ]
