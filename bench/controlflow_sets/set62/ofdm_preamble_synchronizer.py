"""OFDM receiver front end: Schmidl-Cox preamble detection, CFO correction.

The preamble symbol has two identical halves, so the correlation between the
buffer and itself delayed by half a symbol gives a timing metric that forms a
plateau (as long as the cyclic prefix) when the preamble is present. A helper
scans the metric for the first threshold crossing and follows the plateau
with hysteresis; the middle of the plateau is the symbol timing. The phase of
the correlation at that point gives the carrier-frequency offset, which is
removed when significant, and a learned one-tap-per-sample front-end filter
(trained offline) cleans up the preamble's second half for channel estimation.

Kind: X.  Constructs: 1, 2, 3, 4, 7, 8.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class SchmidlCoxSync(nn.Module):
    def __init__(self, half_len=16, threshold=0.5, hold=0.85, cfo_min=0.002):
        super().__init__()
        self.L = half_len
        self.threshold = threshold
        self.hold = hold
        self.cfo_min = cfo_min
        self.front_end = nn.Linear(2 * half_len, 2 * half_len)
        self.register_buffer("window", torch.ones(1, 1, half_len))

    def timing_metric(self, rx):
        L = self.L
        i1, q1 = rx[:-L, 0], rx[:-L, 1]
        i2, q2 = rx[L:, 0], rx[L:, 1]
        # conj(r[n]) * r[n + L], summed over a window of L samples
        p_re = F.conv1d((i1 * i2 + q1 * q2).reshape(1, 1, -1), self.window).flatten()
        p_im = F.conv1d((i1 * q2 - q1 * i2).reshape(1, 1, -1), self.window).flatten()
        energy = F.conv1d((i2 * i2 + q2 * q2).reshape(1, 1, -1), self.window).flatten()
        metric = (p_re ** 2 + p_im ** 2) / (energy ** 2).clamp(min=1e-9)
        return metric, p_re, p_im

    def find_plateau(self, metric):
        n = metric.shape[0]
        start = 0
        while start < n and metric[start] < self.threshold:
            start += 1
        if start == n:
            return None
        end = start
        while end < n and metric[end] > self.hold * self.threshold:
            end += 1
        return start, end

    def derotate(self, x, cfo, first_index):
        n = torch.arange(x.shape[0], dtype=x.dtype) + first_index
        c, s = torch.cos(2 * math.pi * cfo * n), torch.sin(2 * math.pi * cfo * n)
        return torch.stack([x[:, 0] * c + x[:, 1] * s, x[:, 1] * c - x[:, 0] * s], dim=1)

    def forward(self, rx):
        # rx: [N, 2] complex baseband buffer as (I, Q)
        if rx.shape[0] < 3 * self.L:
            # short DMA chunk: zero-pad so a full preamble window fits
            rx = torch.cat([rx, rx.new_zeros(3 * self.L - rx.shape[0], 2)])
        metric, p_re, p_im = self.timing_metric(rx)
        plateau = self.find_plateau(metric)
        if plateau is None:
            return torch.zeros(3), torch.zeros(self.L, 2)  # no preamble in this buffer

        start, end = plateau
        timing = (start + end) // 2
        cfo = torch.atan2(p_im[timing], p_re[timing]) / (2 * math.pi * self.L)  # cycles / sample

        second_half = rx[timing + self.L: timing + 2 * self.L]
        if cfo.abs() > self.cfo_min:
            second_half = self.derotate(second_half, cfo, timing + self.L)
        cleaned = self.front_end(second_half.reshape(-1)).reshape(self.L, 2)
        info = torch.stack([torch.tensor(float(timing)), cfo, metric[timing]])
        return info, cleaned


def model():
    torch.manual_seed(635)
    return SchmidlCoxSync().eval()


def _buffer(n, seed, offset=None, cfo=0.0, noise=0.1, cp=8, half=16):
    g = torch.Generator().manual_seed(seed)
    rx = noise * torch.randn(n, 2, generator=g)
    if offset is not None:
        a = (torch.randint(0, 2, (half, 2), generator=g).float() * 2 - 1) / math.sqrt(2)
        sym = torch.cat([a, a])
        pre = torch.cat([sym[-cp:], sym])
        data = (torch.randint(0, 2, (n, 2), generator=g).float() * 2 - 1) / math.sqrt(2)
        sig = torch.cat([pre, data])[: n - offset]
        k = torch.arange(offset, n, dtype=torch.float32)
        c, s = torch.cos(2 * math.pi * cfo * k), torch.sin(2 * math.pi * cfo * k)
        rot = torch.stack([sig[:, 0] * c - sig[:, 1] * s, sig[:, 0] * s + sig[:, 1] * c], dim=1)
        rx[offset:] = rx[offset:] + rot
        rx[:offset] = rx[:offset] * 3.0  # AGC still settling before the burst
    return (rx,)


def example_inputs():
    return _buffer(160, 1, offset=40, cfo=0.006)


def dynamic_shapes():
    return ({0: Dim("samples", min=40, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                          # burst at 40 with CFO 0.006: plateau found, CFO corrected
        _buffer(256, 2, offset=120, cfo=0.0),      # burst without CFO: correction skipped
        _buffer(128, 3),                           # noise only: first scan runs off the end -> None -> early return
        _buffer(64, 4, offset=30, cfo=-0.004),     # burst late in the buffer: plateau lasts to the end of the metric
                                                   # (second scan stops on `end < n`)
        _buffer(300, 5, offset=0, cfo=0.01),       # burst at the very start: first scan runs 0 times
        _buffer(40, 6, offset=8, cfo=0.003),       # 40-sample DMA chunk: zero-padded to 48 before the metric
    ]
