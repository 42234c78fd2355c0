"""Mains hum removal for a field audio recorder (8 kHz telephony band).

The mains frequency (50 or 60 Hz) is picked by comparing the projected tone
power at both; clips too short to separate them use the configured region
default.  Then harmonics k*f0 are fitted and subtracted one by one, with a
few refinement passes (the clip is not an integer number of cycles, so one
projection does not remove the tone exactly).  Fitting stops at the first
harmonic that is below the noise floor; if all harmonics carried hum the
recorder is buzzing and a short learned post-filter is applied.
Returns the cleaned clip and the number of harmonics removed.
"""
import math

import torch
import torch.nn as nn


def tone_fit(x, freq, fs):
    t = torch.arange(x.shape[0], dtype=x.dtype) / fs
    c = torch.cos(2 * math.pi * freq * t)
    s = torch.sin(2 * math.pi * freq * t)
    a = 2.0 * (x * c).mean()
    b = 2.0 * (x * s).mean()
    return a, b, c, s


def tone_amplitude(x, freq, fs):
    a, b, _, _ = tone_fit(x, freq, fs)
    return torch.sqrt(a * a + b * b)


def detect_mains(x, fs, default_hz):
    if x.shape[0] < 256:
        return default_hz            # < 2 cycles: can't tell 50 from 60 Hz
    return 50.0 if tone_amplitude(x, 50.0, fs) >= tone_amplitude(x, 60.0, fs) else 60.0


class HumRemover(nn.Module):
    def __init__(self, fs=8000.0, region_default_hz=50.0, max_harmonics=5):
        super().__init__()
        self.post = nn.Conv1d(1, 1, 5, padding=2)
        self.fs = fs
        self.region_default_hz = region_default_hz
        self.max_harmonics = max_harmonics
        self.floor_sigmas = 4.0
        self.residual_tol = 0.2
        self.max_passes = 4

    def forward(self, audio):
        f0 = detect_mains(audio, self.fs, self.region_default_hz)
        # detection floor: k sigma of the projection of white noise
        floor = self.floor_sigmas * audio.std() * 2.0 / math.sqrt(audio.shape[0])
        if tone_amplitude(audio, f0, self.fs) < floor:
            return audio.clone(), torch.tensor(0)          # no hum at all

        clean = audio
        removed = 0
        for k in range(1, self.max_harmonics + 1):
            a, b, c, s = tone_fit(clean, k * f0, self.fs)
            if torch.sqrt(a * a + b * b) < floor:
                break
            passes = 0
            while torch.sqrt(a * a + b * b) > self.residual_tol * floor and passes < self.max_passes:
                clean = clean - (a * c + b * s)
                a, b, c, s = tone_fit(clean, k * f0, self.fs)
                passes += 1
            removed += 1
        else:
            # every harmonic carried hum: buzzing ground loop, smooth the residue
            clean = clean + 0.05 * self.post(clean.view(1, 1, -1)).view(-1)
        return clean, torch.tensor(removed)


def model():
    torch.manual_seed(520)
    return HumRemover().eval()


def _clip(n, mains_hz=None, harmonics=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / 8000.0
    x = 0.3 * torch.randn(n, generator=g)              # speech-like noise
    for k, amp in harmonics:
        x = x + amp * torch.sin(2 * math.pi * k * mains_hz * t + 0.3 * k)
    return (x,)


def example_inputs():
    return _clip(400, 50.0, harmonics=((1, 0.5), (2, 0.3)), seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=128, max=512)},)


def verify_inputs():
    buzz = tuple((k, 0.4) for k in range(1, 6))
    return [
        example_inputs(),                                   # 50 Hz + 2nd harmonic, stops at the 3rd
        _clip(128, 50.0, harmonics=((1, 0.6),), seed=2),    # too short -> region default 50 Hz
        _clip(512, 60.0, harmonics=buzz, seed=3),           # 60 Hz buzz on all harmonics -> post-filter
        _clip(300, seed=4),                                 # clean clip -> early return
    ]
