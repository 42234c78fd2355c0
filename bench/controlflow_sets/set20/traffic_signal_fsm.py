"""Adaptive traffic-signal controller for a four-way intersection.

A learned queue estimator reads per-approach detector counts; a phase state
machine (helper with early returns) cycles NS-green, NS-yellow, EW-green,
EW-yellow, switching greens early when the other direction's queue is longer.
Output: phase per step [T] int64 and the summed waiting queue.
"""
import torch
import torch.nn as nn


def next_phase(phase, timer, q_ns, q_ew, min_green):
    if phase == 1 or phase == 3:
        if timer >= 2:
            return (phase + 1) % 4, torch.zeros_like(timer)
        return phase, timer + 1
    if timer < min_green:
        return phase, timer + 1
    waiting = q_ew if phase == 0 else q_ns
    serving = q_ns if phase == 0 else q_ew
    if waiting > serving + 1.0:
        return phase + 1, torch.zeros_like(timer)
    return phase, timer + 1


class SignalController(nn.Module):
    def __init__(self, min_green=3):
        super().__init__()
        self.min_green = min_green
        self.est = nn.Linear(4, 2)

    def forward(self, counts):  # counts: [1, T, 4] vehicles on N, S, E, W detectors
        phase = torch.zeros((), dtype=torch.long)
        timer = torch.zeros((), dtype=torch.long)
        phases, wait = [], torch.zeros(())
        for t in range(counts.shape[1]):
            c = counts[0, t]
            q = torch.stack([c[0] + c[1], c[2] + c[3]]) + 0.1 * self.est(c)
            phase, timer = next_phase(phase, timer, q[0], q[1], self.min_green)
            phases.append(phase)
            wait = wait + (q[1] if phase < 2 else q[0])
        return torch.stack(phases), wait


def _counts(ns, ew, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([[a / 2, a / 2, b / 2, b / 2] for a, b in zip(ns, ew)], dtype=torch.float32)
    return (base + 0.05 * torch.rand(len(ns), 4, generator=g)).unsqueeze(0)


def model():
    torch.manual_seed(0)
    return SignalController().eval()


def example_inputs():
    return (_counts([4, 4, 3, 3, 2, 1, 1, 1, 2, 2, 3, 4], [1, 2, 3, 5, 6, 6, 5, 4, 2, 1, 1, 1], 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("steps", min=2, max=96)},)


def verify_inputs():
    return [
        (_counts([5, 5], [1, 1], 1),),
        (_counts([1] * 20, [6] * 20, 2),),
        (_counts([3, 6, 6, 6, 6, 6, 2, 2, 2], [3, 1, 1, 1, 1, 1, 7, 7, 7], 3),),
    ]
