"""Vibrato analyser for a violin practice app.

Kind T.  Constructs: 1, 2, 3.
Takes the f0 track (Hz, 0 = unvoiced) and RMS amplitude from a pitch tracker
at 100 frames/s, measures vibrato extent (cents) and rate (Hz) and labels the
note straight / normal / wide-and-fast; a small MLP turns the measurements
into a feedback embedding.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

FRAMES = Dim("frames", min=16, max=2048)
FRAME_RATE = 100.0


def to_cents(f0, ref):
    return 1200.0 * torch.log2(f0 / ref)


def count_crossings(x):
    s = x > 0
    return (s[1:] != s[:-1]).sum()


def vibrato_stats(cents, voiced):
    dev = cents - (cents * voiced).sum() / voiced.sum()
    dev = dev * voiced
    extent = dev.abs().amax()
    duration = voiced.sum() / FRAME_RATE
    rate = count_crossings(dev) / 2.0 / duration
    return extent, rate


class VibratoAnalyzer(nn.Module):
    def __init__(self):
        super().__init__()
        self.feedback = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 8))

    def forward(self, f0, amp):
        voiced = ((f0 > 0) & (amp > 0.05)).float()
        if voiced.mean() < 0.5:
            return torch.zeros(2), torch.zeros(3), torch.zeros(8)

        ref = torch.exp((torch.log(f0.clamp(min=1.0)) * voiced).sum() / voiced.sum())
        cents = to_cents(torch.where(voiced > 0, f0, ref), ref)
        extent, rate = vibrato_stats(cents, voiced)

        if extent < 10.0 or not rate > 3.0:
            style = torch.tensor([1.0, 0.0, 0.0])      # straight tone
        elif rate > 7.0 and extent > 40.0:
            style = torch.tensor([0.0, 0.0, 1.0])      # wide and fast: "nervous" vibrato
        else:
            style = torch.tensor([0.0, 1.0, 0.0])      # normal vibrato
        stats = torch.stack([extent / 100.0, rate / 10.0])
        return stats, style, self.feedback(torch.cat([stats, style]))


def model():
    torch.manual_seed(63008)
    return VibratoAnalyzer().eval()


def _note(n, pitch_hz, rate_hz, extent_cents, seed, unvoiced_from=None):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / FRAME_RATE
    cents = extent_cents * torch.sin(2 * torch.pi * rate_hz * t + 0.4)
    f0 = pitch_hz * torch.pow(2.0, cents / 1200.0)
    amp = 0.3 + 0.02 * torch.rand(n, generator=g)
    if unvoiced_from is not None:
        f0[unvoiced_from:] = 0.0
        amp[unvoiced_from:] = 0.01
    return f0, amp


def example_inputs():
    return _note(200, 440.0, 5.6, 25.0, 1)


def dynamic_shapes():
    return ({0: FRAMES}, {0: FRAMES})


def verify_inputs():
    return [
        example_inputs(),                              # 5.6 Hz, 25 cents: normal (else)
        _note(100, 660.0, 5.6, 25.0, 2, unvoiced_from=30),  # mostly silence: early return
        _note(150, 392.0, 5.6, 4.0, 3),                # straight tone: 1st `or` operand
        _note(300, 294.0, 1.6, 30.0, 4),               # slow pitch wander: `not rate > 3`
        _note(160, 523.0, 8.3, 60.0, 5),               # fast and wide: elif
        _note(250, 880.0, 8.3, 20.0, 6, unvoiced_from=220),  # fast but narrow, a few unvoiced frames: else
    ]
