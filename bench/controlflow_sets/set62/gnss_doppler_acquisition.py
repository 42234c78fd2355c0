"""GNSS signal acquisition: serial Doppler search + hill-climb refinement.

A software receiver looks for one satellite's spreading code in a snapshot of
complex baseband samples. Doppler bins are searched in a configured order; in
each bin the carrier is wiped off and all code phases are correlated at once
(circulant code matrix). The first bin whose peak-to-mean ratio crosses the
detection threshold stops the search (for/else: no bin -> satellite absent).
The Doppler estimate is then refined by a few hill-climbing steps, and a tiny
learned head turns the three correlation powers around the peak into a
sub-chip code-phase correction.

Kind: X.  Constructs: 1, 2, 6, 9.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class DopplerAcquisition(nn.Module):
    def __init__(self, doppler_bins=(0.0, 0.004, -0.004, 0.008, -0.008, 0.012, -0.012),
                 threshold=15.0, refine_steps=3):
        super().__init__()
        self.doppler_bins = list(doppler_bins)  # cycles / sample, searched in this order
        self.bin_width = 0.004
        self.threshold = threshold
        self.refine_steps = refine_steps
        self.subchip = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def correlate(self, iq, code_matrix, freq):
        n = torch.arange(iq.shape[0], dtype=iq.dtype)
        phase = 2.0 * math.pi * freq * n
        c, s = torch.cos(phase), torch.sin(phase)
        i = iq[:, 0] * c + iq[:, 1] * s
        q = iq[:, 1] * c - iq[:, 0] * s
        return (code_matrix @ i) ** 2 + (code_matrix @ q) ** 2  # power at every code phase

    def peak(self, iq, code_matrix, freq):
        return self.correlate(iq, code_matrix, freq).max()

    def forward(self, iq, code):
        # iq: [N, 2] baseband samples; code: [N] +-1 replica of the spreading code
        n = code.shape[0]
        idx = (torch.arange(n).unsqueeze(0) - torch.arange(n).unsqueeze(1)) % n
        code_matrix = code[idx]  # row k = code delayed by k samples

        for f in self.doppler_bins:
            power = self.correlate(iq, code_matrix, f)
            best, lag = power.max(dim=0)
            ratio = best / power.mean()
            if ratio > self.threshold:
                break
        else:
            return torch.zeros(3)  # satellite not in view

        freq = torch.tensor(f)
        step = self.bin_width / 2
        for _ in range(self.refine_steps):
            up = self.peak(iq, code_matrix, freq + step)
            down = self.peak(iq, code_matrix, freq - step)
            if up > best and up > down:
                freq, best = freq + step, up
            elif down > best:
                freq, best = freq - step, down
            step = step / 2

        power = self.correlate(iq, code_matrix, freq)
        neighbours = torch.stack([power[(lag - 1) % n], power[lag], power[(lag + 1) % n]]) / power[lag]
        frac = 0.5 * torch.tanh(self.subchip(neighbours)).squeeze()
        return torch.stack([freq, lag.to(freq.dtype) + frac, ratio])


def model():
    torch.manual_seed(630)
    return DopplerAcquisition().eval()


def _snapshot(n, seed, delay=None, doppler=0.0, noise=0.7):
    g = torch.Generator().manual_seed(seed)
    code = torch.randint(0, 2, (n,), generator=g).float() * 2 - 1
    iq = noise * torch.randn(n, 2, generator=g)
    if delay is not None:
        k = torch.arange(n, dtype=torch.float32)
        sig = torch.roll(code, delay)
        ph = 2 * math.pi * doppler * k
        iq = iq + torch.stack([sig * torch.cos(ph), sig * torch.sin(ph)], dim=1)
    return iq, code


def example_inputs():
    return _snapshot(128, 1, delay=37, doppler=0.0011)


def dynamic_shapes():
    n = Dim("samples", min=32, max=512)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                               # signal near 0: break in the first bin
        _snapshot(200, 2, delay=150, doppler=-0.0093),  # signal near -0.009: break in the 5th bin
        _snapshot(96, 3),                               # noise only: no bin crosses -> for/else early return
        _snapshot(64, 4, delay=5, doppler=0.0121),      # short snapshot: wide main lobe, break already at the 0.008 bin,
                                                        # hill-climb pulls the estimate up
        _snapshot(100, 4, delay=5, doppler=-0.014),     # signal beyond the last bin: found on the last try
        _snapshot(160, 5, delay=80, doppler=0.004),     # signal exactly on the 2nd bin
    ]
