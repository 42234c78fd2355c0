"""Podcast/vocal de-esser: split off the sibilance band with a learned
high-pass FIR, measure its share of frame energy and duck only that band when
it exceeds a threshold, with look-ahead gain smoothing.

Kind T. Constructs: 1, 2, 3, 7, 9.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class DeEsser(nn.Module):
    def __init__(self, frame=256, hop=128, threshold=0.45, strength=0.8, lookahead=2):
        super().__init__()
        self.frame, self.hop = frame, hop
        self.threshold = threshold
        self.strength = strength
        self.lookahead = lookahead
        self.noise_floor = 1e-4
        # 31-tap high-pass: spectral inversion of a windowed-sinc low-pass, plus a
        # small trainable correction
        n = torch.arange(31, dtype=torch.float32) - 15
        fc = 0.28  # ~4.5 kHz at 16 kHz
        lp = torch.where(n == 0, torch.tensor(2 * fc), torch.sin(2 * math.pi * fc * n) / (math.pi * n))
        lp = lp * torch.hamming_window(31, periodic=False)
        hp = -lp
        hp[15] += 1.0
        self.hp = nn.Parameter(hp.view(1, 1, 31) + 0.002 * torch.randn(1, 1, 31))

    def sibilance_gain(self, ratio, energy):
        """Per-frame gain for the high band; 1 means untouched."""
        if ratio.max() < self.threshold or energy.max() < self.noise_floor:
            return torch.ones_like(ratio)
        over = ratio / self.threshold
        gain = torch.where(over > 1.0, over.pow(-self.strength), torch.ones_like(over))
        if self.lookahead > 0:
            # start ducking a couple of frames early: running min over the future
            gain = -F.max_pool1d(-gain.unsqueeze(1), kernel_size=2 * self.lookahead + 1,
                                 stride=1, padding=self.lookahead).squeeze(1)
        return gain

    def forward(self, audio):
        # audio: [B, N] at 16 kHz
        peak = audio.abs().max()
        if peak > 1.0:
            audio = audio / peak  # clipped import: normalise first
        high = F.conv1d(audio.unsqueeze(1), self.hp, padding=15).squeeze(1)
        low = audio - high
        frames_all = audio.unfold(1, self.frame, self.hop)
        frames_high = high.unfold(1, self.frame, self.hop)
        energy = frames_all.pow(2).mean(-1)
        ratio = frames_high.pow(2).mean(-1) / (energy + 1e-8)
        gain = self.sibilance_gain(ratio, energy)
        gain_s = F.interpolate(gain.unsqueeze(1), size=audio.shape[1], mode="linear",
                               align_corners=False).squeeze(1)
        return low + high * gain_s, gain


def model():
    torch.manual_seed(4)
    return DeEsser().eval()


def _voice(n, sib_start=None, sib_len=0, amp=0.35, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / 16000.0
    x = amp * (0.6 * torch.sin(2 * math.pi * 180 * t) + 0.3 * torch.sin(2 * math.pi * 360 * t))
    if sib_start is not None:
        burst = torch.zeros(n)
        burst[sib_start:sib_start + sib_len] = 1.0
        x = x + amp * 1.5 * burst * torch.sin(2 * math.pi * 6500 * t)
    x = x + 0.005 * amp * torch.randn(n, generator=g)
    return torch.stack([x, 0.8 * x])


def example_inputs():
    return (_voice(4096, sib_start=1500, sib_len=900, seed=0),)


def dynamic_shapes():
    return ({1: Dim("samples", min=512, max=16000)},)


def verify_inputs():
    return [
        example_inputs(),  # voiced speech + "s" burst: ratio > threshold -> ducking + lookahead
        (_voice(2048, seed=1),),  # only voiced tone: ratio < threshold -> gain 1 (first `or` operand)
        (_voice(3000, sib_start=0, sib_len=3000, amp=1e-4, seed=2),),  # sibilant but near-silent: energy < floor -> gain 1 (second operand)
        (_voice(16000, sib_start=8000, sib_len=2000, amp=2.0, seed=3),),  # peak > 1 -> normalise, then duck
        (_voice(512, sib_start=100, sib_len=300, seed=4),),  # minimum length (3 frames), ducking
    ]
