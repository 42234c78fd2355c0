"""Skateboard trick detector for a board-mounted IMU (6-axis, 100 Hz).

Kind X.  Constructs: 1, 2, 5, 6, 7.
Airborne phases are found by a per-sample loop on the free-fall test
(continue while in the air, close a segment on landing, drop hops that are
too short, stop after the configured number of tricks).  Each segment's
integrated rotation goes through a helper if/elif chain (ollie / kickflip /
shove-it / varial kickflip) and a GRU-cell submodule that loops over the
segment's samples; a recording without a trick returns an empty table.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim

SAMPLES = Dim("samples", min=16, max=1024)
DT = 0.01
OLLIE, KICKFLIP, SHUVIT, VARIAL = 0, 1, 2, 3


def rotation_turns(gyro):
    return gyro.sum(dim=0) * DT / (2.0 * math.pi)


def classify_trick(turns):
    roll, yaw = turns[0].abs(), turns[2].abs()
    if roll > 0.75 and yaw > 0.35:
        return VARIAL
    elif roll > 0.75:
        return KICKFLIP
    elif yaw > 0.35:
        return SHUVIT
    return OLLIE


class SegmentEncoder(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.cell = nn.GRUCell(6, hidden)
        self.hidden = hidden

    def forward(self, seg):
        h = torch.zeros(1, self.hidden)
        for t in range(seg.shape[0]):
            h = self.cell(seg[t:t + 1], h)
        return h[0]


class TrickSegmenter(nn.Module):
    def __init__(self, min_air=15, max_tricks=4, free_fall_g=0.4):
        super().__init__()
        self.encoder = SegmentEncoder()
        self.min_air = min_air
        self.max_tricks = max_tricks
        self.free_fall_g = free_fall_g

    def forward(self, imu):
        airborne = imu[:, :3].norm(dim=1) < self.free_fall_g
        segments = []
        start = None
        for t in range(imu.shape[0]):
            if airborne[t]:
                if start is None:
                    start = t
                continue
            if start is not None:
                if t - start >= self.min_air:
                    segments.append((start, t))
                    if len(segments) >= self.max_tricks:
                        break
                start = None

        if not segments:
            return torch.zeros(0, 4 + 1 + self.encoder.hidden)
        rows = []
        for a, b in segments:
            label = classify_trick(rotation_turns(imu[a:b, 3:]))
            rows.append(torch.cat([torch.eye(4)[label], torch.tensor([(b - a) * DT]), self.encoder(imu[a:b])]))
        return torch.stack(rows)


def model():
    torch.manual_seed(63020)
    return TrickSegmenter().eval()


def _session(n, seed, tricks=()):
    """tricks: (start sample, airtime samples, roll turns, yaw turns)."""
    g = torch.Generator().manual_seed(seed)
    acc = torch.tensor([0.0, 0.0, 1.0]).repeat(n, 1) + 0.05 * torch.randn(n, 3, generator=g)
    gyro = 0.05 * torch.randn(n, 3, generator=g)
    for s, air, roll, yaw in tricks:
        e = min(s + air, n)
        acc[s:e] = 0.1 * torch.rand(e - s, 3, generator=g)
        gyro[s:e, 0] += roll * 2 * math.pi / (air * DT)
        gyro[s:e, 2] += yaw * 2 * math.pi / (air * DT)
        if e < n:
            acc[e, 2] = 3.0                          # landing impact
    return (torch.cat([acc, gyro], dim=1),)


def example_inputs():
    return _session(300, 1, tricks=[(30, 40, 0.0, 0.0), (120, 45, 1.0, 0.0), (220, 40, 0.0, 0.5)])


def dynamic_shapes():
    return ({0: SAMPLES},)


def verify_inputs():
    return [
        example_inputs(),                                           # ollie, kickflip, shove-it
        _session(64, 2),                                            # just rolling: no segment -> early return
        _session(200, 3, tricks=[(20, 8, 0.0, 0.0), (80, 50, 1.0, 0.5)]),   # 8-sample hop dropped; varial flip
        _session(600, 4, tricks=[(20, 30, 1.0, 0.0), (120, 30, 0.0, 0.0), (220, 30, 0.0, 0.5),
                                 (320, 30, 1.0, 0.5), (420, 30, 1.0, 0.0)]),  # 5 tricks: stop after 4 (break)
        _session(100, 5, tricks=[(10, 30, 0.0, 0.5), (80, 40, 1.0, 0.0)]),  # ends mid-air: last one never lands
    ]
