"""Robotic peg-in-hole insertion with an Archimedean spiral search.

The arm presses the peg on the chamfered surface and moves along a spiral
until the measured axial force drops (the peg fell into the hole). The force
is simulated from the (unknown to the controller) hole offset; the wrist F/T
sensor bias is estimated from a calibration window taken before contact.
"""
import math

import torch
import torch.nn as nn


def spiral_point(k, pitch_mm, step_mm):
    # constant arc-length steps along r = pitch * theta / (2 pi)
    theta = math.sqrt(4.0 * math.pi * step_mm * k / pitch_mm)
    r = pitch_mm * theta / (2.0 * math.pi)
    return torch.tensor([r * math.cos(theta), r * math.sin(theta)])


def lateral_error(pos, hole):
    return torch.linalg.vector_norm(pos - hole)


def contact_force(pos, hole, press_n, clearance_mm):
    # full press force on the surface, dropping off once the peg is over the hole
    d = lateral_error(pos, hole)
    return press_n * torch.sigmoid((d - clearance_mm) / 0.05)


def estimate_bias(ft_window, noise_limit):
    fz = ft_window[:, 2]
    if fz.std() > noise_limit:
        # vibration during calibration: use a robust estimate
        return fz.median()
    return fz.mean()


class SpiralSearchController(nn.Module):
    def __init__(self, pitch_mm=0.6, step_mm=0.3, press_n=12.0, clearance_mm=0.4, max_steps=300):
        super().__init__()
        self.pitch_mm = pitch_mm
        self.step_mm = step_mm
        self.press_n = press_n
        self.clearance_mm = clearance_mm
        self.max_steps = max_steps
        self.drop_threshold = 0.35 * press_n
        # learned gravity/temperature drift compensation of the F/T sensor
        self.drift = nn.Linear(3, 1)

    def read_force(self, pos, hole, bias):
        return contact_force(pos, hole, self.press_n, self.clearance_mm) + bias

    def forward(self, hole_offset, ft_window):
        bias = estimate_bias(ft_window, noise_limit=0.2)
        bias = bias + 0.05 * torch.tanh(self.drift(ft_window.mean(0))).squeeze(0)
        pos = torch.zeros(2)
        k = 0
        fz = self.read_force(pos, hole_offset, bias) - bias
        while fz > self.drop_threshold and k < self.max_steps:
            k += 1
            pos = spiral_point(k, self.pitch_mm, self.step_mm)
            fz = self.read_force(pos, hole_offset, bias) - bias
        inserted = (fz <= self.drop_threshold).long()
        return pos, torch.tensor(k), inserted


def model():
    torch.manual_seed(5511)
    return SpiralSearchController().eval()


def _trial(offset, samples, noise, seed):
    g = torch.Generator().manual_seed(seed)
    ft = torch.tensor([0.1, -0.2, 1.5]) + noise * torch.randn(samples, 3, generator=g)
    return torch.tensor(offset), ft


def example_inputs():
    return _trial([1.2, -0.7], 16, 0.05, 1)


def dynamic_shapes():
    samples = torch.export.Dim("cal_samples", min=4, max=64)
    return (None, {0: samples})


def verify_inputs():
    return [
        example_inputs(),                     # hole ~1.4 mm away: spiral finds it after some steps
        _trial([0.05, 0.1], 4, 0.5, 2),       # cal_samples=min, noisy calibration (median); already over the hole: 0 steps
        _trial([2.5, 1.9], 64, 0.02, 3),      # cal_samples=max, farther hole (~3 mm), long search
        _trial([40.0, 40.0], 10, 0.05, 4),    # hole outside the search area: stops at max_steps, not inserted
    ]
