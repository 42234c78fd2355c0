"""Fatigue life prediction of a cracked plate: Paris-law crack growth under a
repeating block load spectrum until the crack reaches critical size."""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class ParisCrackGrowth(nn.Module):
    def __init__(self, C=5e-11, m=3.0, width=0.1, k_ic=60.0, cycles_per_load=1000.0, max_blocks=200):
        super().__init__()
        self.C = C
        self.m = m
        self.width = width
        self.k_ic = k_ic
        self.cycles = cycles_per_load
        self.max_blocks = max_blocks
        # mean-stress (Walker) correction learned from coupon tests
        self.walker = nn.Linear(1, 1)

    def geometry_factor(self, a):
        ratio = a / self.width
        if ratio < 0.3:
            return torch.full_like(a, 1.12)  # small edge crack
        # finite-width correction for long cracks
        return 1.12 - 0.231 * ratio + 10.55 * ratio ** 2 - 21.72 * ratio ** 3 + 30.39 * ratio ** 4

    def forward(self, stress_ranges, a0):
        # stress_ranges: [L] MPa per load level in one block, a0: [1] initial crack (m)
        corr = 1.0 + 0.1 * torch.tanh(self.walker(stress_ranges[:, None] / 100.0)).squeeze(1)
        s_max = stress_ranges.max()
        a = a0.clone()
        history = [a]
        blocks = 0
        while self.geometry_factor(a) * s_max * torch.sqrt(math.pi * a) < self.k_ic and blocks < self.max_blocks:
            y = self.geometry_factor(a)
            dk = y * stress_ranges * corr * torch.sqrt(math.pi * a)
            a = a + (self.C * dk ** self.m * self.cycles).sum()
            a = a.clamp(max=0.6 * self.width)
            history.append(a)
            blocks += 1
        return torch.cat(history), torch.tensor([float(blocks)])


def model():
    torch.manual_seed(4910)
    return ParisCrackGrowth().eval()


def _spec(L, seed, peak):
    g = torch.Generator().manual_seed(seed)
    return peak * (0.3 + 0.7 * torch.rand(L, generator=g))


def example_inputs():
    # typical spectrum, crack grows for many blocks to fracture
    return _spec(12, 91, 150.0), torch.tensor([0.002])


def dynamic_shapes():
    return ({0: Dim("levels", min=2, max=128)}, None)


def verify_inputs():
    return [
        example_inputs(),
        (_spec(8, 92, 400.0), torch.tensor([0.05])),    # already critical: loop runs 0 times
        (_spec(4, 93, 380.0), torch.tensor([0.011])),   # fractures after one block
        (_spec(128, 94, 20.0), torch.tensor([0.001])),  # low stress: hits the block limit
        (_spec(2, 95, 200.0), torch.tensor([0.004])),   # two load levels, long-crack factor
    ]
