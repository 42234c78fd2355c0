"""Frame-wise LPC analysis (speech codec / vowel recogniser front end).

frames: [F, N] windowed-to-be speech frames (both dynamic).
Per frame: pre-emphasis, Hann window, autocorrelation (direct sum for short
frames, FFT for long ones), then the Levinson-Durbin recursion, which stops
early once the prediction error is small enough.  Silent frames are skipped.
Returns (lpc coefficients [F, order+1], gains [F], vowel logits [F, 5]).
"""
import torch
import torch.nn as nn
from torch.export import Dim


class LPCAnalyzer(nn.Module):
    def __init__(self, order=10, silence=1e-4, min_error=3e-3, preemph=0.97):
        super().__init__()
        self.order = order
        self.silence = silence
        self.min_error = min_error
        self.preemph = preemph
        self.vowel_head = nn.Sequential(nn.Linear(order + 1, 32), nn.ReLU(), nn.Linear(32, 5))

    def autocorr(self, x):
        n = x.shape[0]
        if n > 256:
            spec = torch.fft.rfft(x, n=2 * n)
            return torch.fft.irfft(spec.abs() ** 2, n=2 * n)[: self.order + 1]
        return torch.stack([(x[: n - k] * x[k:]).sum() for k in range(self.order + 1)])

    def levinson(self, r):
        a = [torch.ones(())]
        err = r[0]
        for i in range(1, self.order + 1):
            acc = r[i]
            for j in range(1, i):
                acc = acc + a[j] * r[i - j]
            k = -acc / err
            a = [a[0]] + [a[j] + k * a[i - j] for j in range(1, i)] + [k]
            err = err * (1.0 - k * k)
            if err / r[0] < self.min_error:
                break  # model already explains the frame: keep the low order
        while len(a) < self.order + 1:
            a.append(torch.zeros(()))
        return torch.stack(a), err

    def forward(self, frames):
        n = frames.shape[1]
        window = torch.hann_window(n, periodic=False)
        coeffs, gains = [], []
        for f in range(frames.shape[0]):
            x = frames[f]
            x = torch.cat([x[:1], x[1:] - self.preemph * x[:-1]]) * window
            if (x * x).mean() < self.silence:
                coeffs.append(torch.zeros(self.order + 1))
                gains.append(torch.zeros(()))
                continue
            r = self.autocorr(x)
            a, err = self.levinson(r)
            coeffs.append(a)
            gains.append(torch.sqrt(err.clamp_min(0.0)))
        lpc = torch.stack(coeffs)
        return lpc, torch.stack(gains), self.vowel_head(lpc)


def model():
    torch.manual_seed(31)
    return LPCAnalyzer().eval()


def _frames(kinds, n, seed, fs=8000.0):
    """kinds: string of 'v' (vowel-like: AR resonances + noise), 't' (two pure tones), 's' (silence)."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / fs
    out = []
    for kind in kinds:
        if kind == "s":
            out.append(1e-4 * torch.randn(n, generator=g))
        elif kind == "t":
            out.append(0.5 * torch.sin(2 * torch.pi * 440.0 * t) + 0.3 * torch.sin(2 * torch.pi * 1320.0 * t))
        else:
            e = torch.randn(n, generator=g)
            y = torch.zeros(n)
            y1 = torch.zeros(())
            y2 = torch.zeros(())
            for i in range(n):  # two-pole resonator at ~700 Hz
                v = e[i] + 1.6 * y1 - 0.81 * y2
                y[i] = v
                y2, y1 = y1, v
            out.append(0.05 * y)
    return torch.stack(out)


def example_inputs():
    return (_frames("vvsv", 200, 1),)


def dynamic_shapes():
    return ({0: Dim("frames", min=2, max=64), 1: Dim("frame_len", min=32, max=1024)},)


def verify_inputs():
    return [
        example_inputs(),                 # short frames: direct autocorrelation, full order, one silent frame skipped
        (_frames("tvt", 320, 2),),        # long frames: FFT autocorrelation; pure tones stop the recursion early
        (_frames("ss", 64, 3),),          # all silence: every frame skipped
        (_frames("vt", 128, 4),),         # mixed short frames
    ]
