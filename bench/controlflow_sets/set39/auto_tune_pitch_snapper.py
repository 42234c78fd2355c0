"""Vocal pitch correction ("auto-tune") on a mono take: frame-wise autocorrelation pitch
detection with parabolic peak refinement, voicing decision, snapping to the nearest note
of the configured scale, a learned retune speed (how much of the correction to apply),
a dead band inside which frames are left untouched, and per-frame resampling.

Kind X. Constructs: 1 (if on tensor energy / periodicity / cents, .item() note numbers),
2 (returns inside branches of the scale-snapping helper), 3 (or in the voicing test),
5 (for over a frame count derived from the dynamic length, Python lists -> cat / stack),
6 (continue on unvoiced frames and on frames inside the dead band), 7 (pitch estimation,
snapping and resampling helpers calling each other), 8 (padding branch on the dynamic
length), 9 (static scale table and frame size).
"""
import torch
import torch.nn as nn

SR = 16000.0
C_MAJOR = (0, 2, 4, 5, 7, 9, 11)


def autocorrelation(frame, max_lag):
    n = frame.shape[0]
    spec = torch.fft.rfft(frame, 2 * n)
    r = torch.fft.irfft(spec.real ** 2 + spec.imag ** 2, 2 * n)[: max_lag + 2]
    return r / (r[0] + 1e-9)


def estimate_pitch(frame, min_lag, max_lag):
    r = autocorrelation(frame, max_lag)
    k = int(torch.argmax(r[min_lag:max_lag])) + min_lag
    a, b, c = r[k - 1], r[k], r[k + 1]
    offset = (0.5 * (a - c) / (a - 2.0 * b + c - 1e-9)).clamp(-0.5, 0.5)
    return SR / (k + offset), b


def hz_to_midi(f):
    return 69.0 + 12.0 * torch.log2(f / 440.0)


def snap_to_scale(midi, scale):
    base = int(torch.round(midi))
    if base % 12 in scale:
        return torch.tensor(float(base))
    # chromatic note outside the scale: go to the neighbour on the side the singer is on
    if midi < base:
        return torch.tensor(float(base - 1))
    return torch.tensor(float(base + 1))


def resample_frame(frame, ratio):
    n = frame.shape[0]
    pos = (torch.arange(n, dtype=torch.float32) * ratio).clamp(max=n - 1)
    lo = pos.floor().long().clamp(max=n - 2)
    frac = pos - lo
    return frame[lo] * (1.0 - frac) + frame[lo + 1] * frac


class AutoTune(nn.Module):
    def __init__(self, hop=512, scale=C_MAJOR, energy_threshold=1e-4, min_periodicity=0.5,
                 deadband_cents=15.0):
        super().__init__()
        self.hop = hop
        self.scale = scale
        self.energy_threshold = energy_threshold
        self.min_periodicity = min_periodicity
        self.deadband_cents = deadband_cents
        self.min_lag = int(SR / 400.0)
        self.max_lag = int(SR / 62.5)
        self.speed_net = nn.Sequential(nn.Linear(3, 12), nn.Tanh(), nn.Linear(12, 1))

    def forward(self, audio):
        # audio: (N,) mono vocal at 16 kHz
        n_in = audio.shape[0]
        if n_in % self.hop != 0:
            audio = torch.cat([audio, audio.new_zeros(self.hop - n_in % self.hop)])
        n_frames = audio.shape[0] // self.hop
        out, f0s = [], []
        for i in range(n_frames):
            frame = audio[i * self.hop:(i + 1) * self.hop]
            energy = frame.pow(2).mean()
            f0, periodicity = estimate_pitch(frame, self.min_lag, self.max_lag)
            if energy < self.energy_threshold or periodicity < self.min_periodicity:
                out.append(frame)                    # unvoiced / silence: pass through
                f0s.append(torch.zeros(()))
                continue
            midi = hz_to_midi(f0)
            target = snap_to_scale(midi, self.scale)
            cents = 100.0 * (target - midi)
            f0s.append(f0)
            if cents.abs() < self.deadband_cents:
                out.append(frame)                    # already in tune
                continue
            feats = torch.stack([cents / 100.0, torch.log10(energy) / 4.0, periodicity])
            speed = torch.sigmoid(self.speed_net(feats)[0] + 2.0)
            ratio = 2.0 ** (speed * cents / 1200.0)
            out.append(resample_frame(frame, ratio))
        return torch.cat(out)[:n_in], torch.stack(f0s)


def model():
    torch.manual_seed(3915)
    return AutoTune().eval()


def _make_take(notes, hop=512, seed=0, tail=0):
    """notes: list of midi numbers (None = silence, "noise" = breath) one per frame."""
    g = torch.Generator().manual_seed(seed)
    frames = []
    t = torch.arange(hop) / SR
    for k, note in enumerate(notes):
        if note is None:
            frames.append(0.001 * torch.randn(hop, generator=g))
        elif note == "noise":
            frames.append(0.2 * torch.randn(hop, generator=g))
        else:
            f = 440.0 * 2.0 ** ((note - 69.0) / 12.0)
            ph = 2 * torch.pi * f * (t + k * hop / SR)
            frames.append(0.3 * torch.sin(ph) + 0.1 * torch.sin(2 * ph) + 0.002 * torch.randn(hop, generator=g))
    x = torch.cat(frames)
    if tail:
        x = x[: x.shape[0] - hop + tail]
    return (x,)


def example_inputs():
    # four frames: A3 +30 cents (in scale, corrected), C#4 +25 cents (snapped up to D),
    # silence, E4 in tune (dead band)
    return _make_take([57.3, 61.25, None, 64.0], seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=512, max=8192)},)


def verify_inputs():
    ex = example_inputs()   # the example: path described in example_inputs()
    # a breathy (noisy, non-periodic) frame, a flat F#3 (below 54, snaps down to F3), a sharp
    # G3, a C4 only slightly flat (dead band), a sharp C3, and a length that is not a multiple
    # of the hop (padding branch)
    phrase = _make_take(["noise", 53.7, 55.2, 59.8, 48.2], seed=2, tail=300)
    # a single frame (minimum length), low G2-ish note
    single = _make_take([43.2], seed=3)
    # sixteen frames (maximum length): a slow scale run with drifting intonation
    run = _make_take([48.2, 50.1, 51.8, 53.3, 55.0, 57.25, 59.3, 60.2, 62.3, 63.7, 65.2, 67.0,
                      None, 66.75, 64.2, 62.0], seed=4)
    return [ex, phrase, single, run]
