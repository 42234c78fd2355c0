"""Declipping of a recorded audio frame (restoration plug-in).

Kind X. Constructs: 1, 2, 3, 4, 5, 6, 7.
Samples stuck at the converter's rail are located as runs.  Short runs are
rebuilt with a parabola through the run whose overshoot above the rail is
predicted by a small learned head from the slopes entering and leaving
the run; runs touching the frame edge are held, and runs that are too long
to repair are left alone.  Frames with (almost) no clipping are returned
untouched.
"""
import torch
import torch.nn as nn


def find_runs(mask):
    """Start/end (exclusive) of every run of True in a 1-D bool tensor."""
    runs = []
    n = mask.shape[0]
    i = 0
    while i < n:
        if not mask[i]:
            i += 1
            continue
        j = i
        while j < n and mask[j]:
            j += 1
        runs.append((i, j))
        i = j
    return runs


class OvershootHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, slope_in, slope_out, length):
        f = torch.stack([slope_in, slope_out, length / 16.0])
        # overshoot above the rail, in units of the rail level
        return 0.05 + 0.3 * torch.sigmoid(self.net(f)).squeeze() * (length / 16.0).clamp(max=1.0)


class Declipper(nn.Module):
    def __init__(self, max_run=24, min_clip_fraction=0.002):
        super().__init__()
        self.max_run = max_run
        self.min_clip_fraction = min_clip_fraction
        self.overshoot = OvershootHead()

    def repair_run(self, x, s, e, rail):
        n = x.shape[0]
        seg = x[s:e]
        sign = torch.sign(seg[0])
        if s == 0 or e == n:
            return seg  # touches the frame edge: no slope on one side, hold
        slope_in = (x[s - 1] - x[s - 2]) * sign if s >= 2 else (x[s] - x[s - 1]) * sign
        slope_out = (x[e] - x[e + 1]) * sign if e + 1 < n else (x[e - 1] - x[e]) * sign
        length = torch.tensor(float(e - s))
        peak = rail * (1 + self.overshoot(slope_in / rail, slope_out / rail, length))
        t = torch.linspace(-1, 1, e - s + 2)[1:-1]
        return sign * (rail + (peak - rail) * (1 - t * t))

    def forward(self, x):
        rail = x.abs().max()
        clipped = x.abs() >= 0.999 * rail
        if clipped.float().mean() < self.min_clip_fraction or rail < 1e-3:
            return x, torch.zeros(())  # clean frame (or silence)

        pieces = []
        prev = 0
        n_handled = torch.zeros(())
        for s, e in find_runs(clipped):
            if e - s == 1:
                continue  # a single sample at the peak is just the maximum, not clipping
            pieces.append(x[prev:s])
            if e - s > self.max_run:
                pieces.append(x[s:e])  # hopeless: leave it
            else:
                pieces.append(self.repair_run(x, s, e, rail))
                n_handled = n_handled + 1
            prev = e
        pieces.append(x[prev:])
        return torch.cat(pieces), n_handled


def model():
    torch.manual_seed(3212)
    return Declipper().eval()


def _tone(n, amp, rail, freq=0.05, seed=0, noise=0.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    x = amp * torch.sin(2 * torch.pi * freq * t + 0.3) + noise * torch.randn(n, generator=g)
    return (x.clamp(-rail, rail),)


def example_inputs():
    # sine overdriven into a 0.8 rail: several short clipped runs on both signs
    return _tone(96, 1.0, 0.8)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=16, max=4096)},)


def verify_inputs():
    head = torch.cat([torch.full((3,), 0.7), 0.7 * torch.cos(torch.linspace(0.2, 6.0, 40))])
    head[10] = 0.6  # tail stays well below the rail
    head[-1] = -0.7
    head[-2] = -0.7
    t = torch.arange(1000, dtype=torch.float32)
    decay = 0.9 * torch.exp(-t / 300) * torch.sin(2 * torch.pi * 0.03 * t + 0.5)
    return [
        example_inputs(),                        # short runs repaired, both signs
        _tone(128, 0.5, 0.8),                    # never reaches the rail: 1-sample peaks, each skipped by 'continue'
        _tone(64, 0.0, 0.8),                     # silence -> early return ('or' second operand)
        _tone(200, 3.0, 0.5, freq=0.004),        # runs longer than max_run are left alone
        (head,),                                 # runs touching both frame edges: held (edge early return), one 1-sample run
        _tone(41, 1.0, 0.8, freq=0.11, seed=1),  # runs starting at sample 1 / ending one before the last: fallback slopes
        (decay,),                                # clean decaying tone, 1 of 1000 samples at max -> early return
    ]
