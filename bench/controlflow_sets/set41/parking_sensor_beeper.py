"""Rear parking-sensor beeper.

Four ultrasonic sensors in the rear bumper report an echo distance per frame
(0 when no echo came back). The nearest valid echo is smoothed, slightly
corrected by a tiny learned geometry model, and mapped to a beep interval:
continuous tone when very close, faster beeps when closer or reversing faster,
silence when nothing is in range.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class ParkingSensorBeeper(nn.Module):
    def __init__(self, smooth_passes=2, continuous_dist=0.3, max_dist=1.5, max_range=2.5):
        super().__init__()
        self.smooth_passes = smooth_passes
        self.continuous_dist = continuous_dist
        self.max_dist = max_dist
        self.max_range = max_range
        self.min_valid = 0.05
        self.geometry = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def beep_interval(self, d, speed):
        """Seconds between beeps; 0 = continuous tone, 2 = silent."""
        if d < self.continuous_dist:
            return torch.zeros((), dtype=d.dtype)
        elif d < self.max_dist:
            interval = 0.1 + 0.9 * (d - self.continuous_dist) / (self.max_dist - self.continuous_dist)
            if speed > 1.0:
                interval = interval * 0.6
            return interval
        return torch.full((), 2.0, dtype=d.dtype)

    def forward(self, echoes, speed):
        nearest = []
        for t in range(echoes.shape[0]):
            frame = echoes[t]
            valid = frame > self.min_valid
            if not valid.any():
                d = torch.full((), self.max_range, dtype=frame.dtype)
            else:
                d = frame[valid].min()
                d = d * (1.0 + 0.03 * torch.tanh(self.geometry(frame)).squeeze())
            nearest.append(d)
        nearest = torch.stack(nearest)

        for _ in range(self.smooth_passes):
            nearest = torch.cat([nearest[:1], 0.5 * (nearest[1:] + nearest[:-1])])

        intervals = []
        for t in range(nearest.shape[0]):
            intervals.append(self.beep_interval(nearest[t], speed[t]))
        return torch.stack(intervals), nearest


def model():
    torch.manual_seed(7)
    return ParkingSensorBeeper().eval()


def _frames(segments):
    """segments: list of (n_frames, [d0, d1, d2, d3], speed)."""
    e, s = [], []
    for n, ds, v in segments:
        e.append(torch.tensor(ds).repeat(n, 1))
        s.append(torch.full((n,), v))
    return torch.cat(e), torch.cat(s)


def example_inputs():
    return _frames([(4, [2.2, 2.0, 0.0, 2.4], 0.5), (4, [1.0, 0.9, 1.1, 0.0], 0.5), (4, [0.2, 0.15, 0.0, 0.0], 0.3)])


def dynamic_shapes():
    t = Dim("frames", min=2, max=400)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                                                # silent -> slow beeps -> continuous tone
        _frames([(3, [0.0, 0.0, 0.0, 0.0], 0.5), (3, [0.0, 0.0, 0.0, 0.0], 0.5)]),    # no echoes at all -> silent
        _frames([(5, [1.2, 0.8, 0.9, 1.0], 1.6), (5, [0.6, 0.7, 0.0, 0.9], 1.4)]),    # mid range reversing fast (speed>1)
        _frames([(1, [0.1, 0.2, 0.2, 0.3], 0.2), (1, [0.1, 0.2, 0.2, 0.3], 0.2)]),    # two frames, continuous tone
        _frames([(6, [0.0, 3.4, 0.0, 0.0], 0.4), (6, [0.0, 1.0, 0.0, 0.0], 0.4), (6, [0.0, 0.0, 0.0, 0.0], 0.4)]),
        # ^ single sensor: far, mid (slow), then echo lost again
    ]
