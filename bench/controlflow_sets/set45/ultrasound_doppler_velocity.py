"""Colour-flow ultrasound: Kasai lag-1 autocorrelation velocity estimate per
depth sample from an IQ ensemble, clutter (wall) filter, noise gate, and a
learned depth smoother used only when the line is long enough.

Kind T. Constructs: 1, 2, 7, 8, 9.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class KasaiEstimator(nn.Module):
    def __init__(self, v_nyquist=0.5, noise_power=1e-3, wall_filter=True, kernel=9):
        super().__init__()
        self.v_nyquist = v_nyquist
        self.noise_power = noise_power
        self.wall_filter = wall_filter
        self.kernel = kernel
        self.smoother = nn.Conv1d(2, 2, kernel, padding=kernel // 2)
        with torch.no_grad():
            self.smoother.weight.mul_(0.1)
            self.smoother.weight[0, 0, kernel // 2] += 1.0
            self.smoother.weight[1, 1, kernel // 2] += 1.0
            self.smoother.bias.zero_()

    def smooth_along_depth(self, v, p):
        if v.shape[-1] < 2 * self.kernel:
            return v, p  # too short a line for the spatial filter
        y = self.smoother(torch.stack([v, p]).unsqueeze(0))[0]
        return y[0], y[1]

    def forward(self, iq):
        # iq: [2, E, D]  (I/Q, slow-time ensemble, depth samples)
        z = torch.complex(iq[0], iq[1])
        if self.wall_filter:
            z = z - z.mean(dim=0, keepdim=True)  # remove stationary tissue
        power = z.abs().pow(2).mean(dim=0)
        if power.mean() < self.noise_power:
            # no flow anywhere on this line: blank it
            zeros = torch.zeros(iq.shape[2])
            return zeros, zeros, torch.zeros(())
        r1 = (z[:-1].conj() * z[1:]).sum(dim=0)
        velocity = torch.angle(r1) / math.pi * self.v_nyquist
        velocity = torch.where(power > self.noise_power, velocity, torch.zeros_like(velocity))
        velocity, power = self.smooth_along_depth(velocity, power)
        if velocity.abs().max() > 0.8 * self.v_nyquist:
            aliasing_risk = torch.ones(())  # tell the sonographer to raise the PRF
        else:
            aliasing_risk = torch.zeros(())
        return velocity, power, aliasing_risk


def model():
    torch.manual_seed(9)
    return KasaiEstimator().eval()


def _ensemble(e, d, phase_step, amp, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(e, dtype=torch.float32).unsqueeze(1)
    depth = torch.linspace(0, 1, d).unsqueeze(0)
    inside = ((depth - 0.5).abs() < 0.2).float()  # vessel lumen in the middle of the line
    profile = amp * inside
    phase = phase_step * t * (0.8 + 0.2 * inside)
    clutter = 0.3  # stationary tissue echo
    i = profile * torch.cos(phase) + clutter + 0.002 * torch.randn(e, d, generator=g)
    q = profile * torch.sin(phase) + 0.002 * torch.randn(e, d, generator=g)
    return torch.stack([i, q])


def example_inputs():
    return (_ensemble(8, 64, 0.6, 1.0, 0),)


def dynamic_shapes():
    return ({1: Dim("ensemble", min=4, max=32), 2: Dim("depth", min=16, max=512)},)


def verify_inputs():
    return [
        example_inputs(),  # slow flow, long line -> smoothed, no aliasing flag
        (_ensemble(12, 16, 0.6, 1.0, 1),),  # 16 < 18 depth samples -> smoother skipped (helper early return)
        (_ensemble(16, 256, 2.8, 1.0, 2),),  # fast jet near Nyquist -> aliasing flag
        (_ensemble(8, 128, 0.5, 1e-3, 3),),  # only clutter + faint echo -> noise gate early return
        (_ensemble(4, 512, 0.4, 2.0, 4),),  # min ensemble, max depth
        (_ensemble(32, 40, 2.7, 0.8, 5),),  # max ensemble, short-ish line (smoothed), aliasing flag
    ]
