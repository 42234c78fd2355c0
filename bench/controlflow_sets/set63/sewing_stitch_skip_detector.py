"""Skipped-stitch detector for an industrial lockstitch sewing machine.

Kind T.  Constructs: 1, 2, 5, 6, 8.
Input is the thread-tension signal cut into one window per stitch (needle
encoder) plus the motor speed of each stitch.  Stitches sewn while the motor
is (almost) stopped are skipped over; a stitch whose tension peak is far
below the running median is a skipped stitch; three in a row stop the
machine (break).  A 1-D CNN embeds the faulty windows for the maintenance log.
Windows recorded at high sample rates are average-pooled first.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

STITCHES = Dim("stitches", min=2, max=512)
WINDOW = Dim("window", min=16, max=256)


class WindowEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv1 = nn.Conv1d(1, 8, 5, padding=2)
        self.conv2 = nn.Conv1d(8, dim, 5, padding=2)

    def forward(self, w):
        x = F.relu(self.conv1(w[None, None]))
        return self.conv2(x).amax(dim=-1).squeeze(0)


class SkipDetector(nn.Module):
    def __init__(self, min_speed=0.5, ratio=0.4, stop_after=3):
        super().__init__()
        self.encoder = WindowEncoder()
        self.min_speed = min_speed
        self.ratio = ratio
        self.stop_after = stop_after

    def forward(self, tension, speed):
        if tension.shape[1] > 128:
            tension = F.avg_pool1d(tension.unsqueeze(1), 2).squeeze(1)
        peaks = tension.amax(dim=1)
        reference = peaks.median()

        flags = torch.zeros(tension.shape[0])
        faulty = []
        run = 0
        for s in range(tension.shape[0]):
            if speed[s] < self.min_speed:
                continue                           # hand-wheel / stopped: not judged
            if peaks[s] < self.ratio * reference:
                flags[s] = 1.0
                faulty.append(self.encoder(tension[s]))
                run += 1
                if run >= self.stop_after:
                    break                          # stop the machine
            else:
                run = 0
        if not faulty:
            return flags, torch.zeros(0, 16)
        return flags, torch.stack(faulty)


def model():
    torch.manual_seed(63007)
    return SkipDetector().eval()


def _run(n, w, seed, skipped=(), stopped=()):
    g = torch.Generator().manual_seed(seed)
    phase = torch.linspace(0.0, 1.0, w)
    pulse = torch.exp(-0.5 * ((phase - 0.6) / 0.05) ** 2)            # take-up lever tension peak
    amp = 1.0 + 0.1 * torch.rand(n, 1, generator=g)
    for s in skipped:
        amp[s] = 0.15                                                # loop not caught by the hook
    tension = amp * pulse + 0.02 * torch.rand(n, w, generator=g)
    speed = 8.0 + torch.rand(n, generator=g)
    for s in stopped:
        speed[s] = 0.1
        tension[s] = 0.1 * tension[s]
    return tension, speed


def example_inputs():
    return _run(40, 64, 1, skipped=(7, 20, 21))


def dynamic_shapes():
    return ({0: STITCHES, 1: WINDOW}, {0: STITCHES})


def verify_inputs():
    return [
        example_inputs(),                                # isolated skips, a pair (run resets): no stop
        _run(12, 200, 2),                                # long windows -> pooled; clean seam: no faulty window
        _run(30, 32, 3, skipped=(10, 11, 12, 13)),       # three in a row: break
        _run(16, 48, 4, skipped=(5,), stopped=(0, 1, 2)),  # hand-wheel stitches skipped over (continue)
        _run(2, 16, 5, stopped=(1,)),                    # two stitches at the minimum window length
    ]
