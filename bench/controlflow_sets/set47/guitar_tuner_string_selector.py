"""Guitar tuner: autocorrelation pitch, nearest string, sharp/flat/in-tune.

Constructs: 1 (if/elif/else on the cent offset), 2 (early return on silence),
7 (helpers with their own branches), 8 (decimate long buffers).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SR = 8000
STRINGS = [82.41, 110.0, 146.83, 196.0, 246.94, 329.63]


def decimate(x, sr):
    if x.shape[0] > 2048:
        return F.avg_pool1d(x.view(1, 1, -1), 2, 2).view(-1), sr // 2
    return x, sr


def pitch_autocorr(x, sr):
    n = x.shape[0]
    spec = torch.fft.rfft(x, 2 * n)
    ac = torch.fft.irfft(spec.abs() ** 2, 2 * n)[:n]
    lo, hi = sr // 1000, sr // 70
    lag = torch.argmax(ac[lo:hi]) + lo
    return sr / lag.float(), ac[0]


class GuitarTuner(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("strings", torch.tensor(STRINGS))
        self.conf = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, audio):
        # audio: [L] samples at 8 kHz
        rms = audio.pow(2).mean().sqrt()
        if rms < 0.01:
            return torch.zeros(4)
        x, sr = decimate(audio, SR)
        f0, energy = pitch_autocorr(x, sr)
        idx = torch.argmin((torch.log(f0 / self.strings)).abs())
        cents = 1200.0 * torch.log2(f0 / self.strings[idx])
        if cents.abs() < 25.0:
            direction = torch.zeros(())
        elif cents > 0:
            direction = -torch.ones(())   # sharp: tune down
        else:
            direction = torch.ones(())    # flat: tune up
        conf = torch.sigmoid(self.conf(torch.stack([rms, f0 / 500.0, energy / x.shape[0]])))
        return torch.stack([f0, idx.float(), direction, conf.squeeze()])


def model():
    torch.manual_seed(9)
    return GuitarTuner().eval()


def _tone(L, f, amp=0.3):
    t = torch.arange(L, dtype=torch.float32) / SR
    return amp * (torch.sin(2 * math.pi * f * t) + 0.3 * torch.sin(4 * math.pi * f * t))


def example_inputs():
    return (_tone(1024, 250.0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=256, max=4096)},)


def verify_inputs():
    return [
        example_inputs(),                 # 250 Hz ~ B3 +21 cents -> in tune, no decimation
        (_tone(512, 200.0),),             # G3 +35 cents -> sharp
        (_tone(3000, 80.0),),             # decimated, E2 -51 cents -> flat
        (_tone(4096, 250.0),),            # max size, decimated, in tune
        (_tone(256, 320.0),),             # min size, E4 -51 cents -> flat
        (torch.zeros(2500),),             # silence (long) -> early return
        (_tone(600, 200.0, amp=0.001),),  # too quiet -> early return
    ]
