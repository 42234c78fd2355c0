"""Asteroid rotation-period finder from a sparse lightcurve.

Survey photometry (time in hours, magnitude) of one asteroid is searched over a
geometric grid of trial rotation periods with a two-harmonic periodogram
(asteroid lightcurves are double-peaked). The number of trial periods comes
from the survey scheduler. Periods too long for the time span are skipped,
and the search stops early on an excellent fit. Output: the dispersion curve,
the best dispersion, and the fitted amplitude.
Constructs: 1, 2, 5, 6, 7
"""
import math

import torch
import torch.nn as nn


def harmonic_fit_dispersion(t, mag, period):
    """1 - fraction of variance explained by a 2-harmonic Fourier fit at `period`."""
    phase = 2.0 * math.pi * t / period
    design = torch.stack([torch.ones_like(t), torch.cos(phase), torch.sin(phase),
                          torch.cos(2 * phase), torch.sin(2 * phase)], dim=1)
    gram = design.T @ design + 1e-3 * torch.eye(5)
    coef = torch.linalg.solve(gram, design.T @ mag)
    resid = mag - design @ coef
    centered = mag - mag.mean()
    return (resid ** 2).sum() / (centered ** 2).sum().clamp(min=1e-6), coef


class LightcurvePeriodFinder(nn.Module):
    def __init__(self, min_period_h=2.0, ratio=1.25, good_fit=0.05):
        super().__init__()
        self.min_period_h = min_period_h
        self.ratio = ratio
        self.good_fit = good_fit

    def forward(self, t, mag, n_trials):
        span = t.max() - t.min()
        dispersions = []
        best_coef = torch.zeros(5)
        for k in range(int(n_trials.item())):
            period = self.min_period_h * self.ratio ** k
            if period > span:
                # fewer than one full rotation observed: cannot fold
                continue
            theta, coef = harmonic_fit_dispersion(t, mag, period)
            dispersions.append(theta)
            if theta < self.good_fit:
                best_coef = coef
                break

        if len(dispersions) == 0:
            return torch.ones(1), torch.ones(()), torch.zeros(())

        curve = torch.stack(dispersions)
        best = curve.min()
        amplitude = 2.0 * torch.sqrt(best_coef[3] ** 2 + best_coef[4] ** 2)
        return curve, best, amplitude


def model():
    return LightcurvePeriodFinder().eval()


def _lightcurve(n, period, seed, span_h=30.0, amp=0.3):
    g = torch.Generator().manual_seed(seed)
    t = torch.sort(torch.rand(n, generator=g) * span_h).values
    phase = 2 * math.pi * t / period
    mag = 15.0 + amp * torch.cos(2 * phase) + 0.1 * amp * torch.sin(phase) \
        + 0.01 * torch.randn(n, generator=g)
    return t, mag


def example_inputs():
    t, mag = _lightcurve(60, 2.0 * 1.25 ** 3, 0)   # true period on the 4th grid point
    return (t, mag, torch.tensor([10]))


def dynamic_shapes():
    n = torch.export.Dim("obs", min=8, max=200)
    return ({0: n}, {0: n}, None)


def verify_inputs():
    t, mag = _lightcurve(60, 2.0 * 1.25 ** 3, 0)
    t2, mag2 = _lightcurve(40, 5.5, 1, amp=0.0)     # pure photometric noise, no rotation signal
    t3, mag3 = _lightcurve(20, 2.0, 2, span_h=1.5)  # span shorter than every trial period
    return [
        example_inputs(),                           # fits on 4th trial -> break; no continue
        (t2, mag2, torch.tensor([14])),             # no excellent fit: loop runs out, long periods skipped (continue)
        (t, mag, torch.tensor([0])),                # zero trials: loop runs 0 times -> early return
        (t, mag, torch.tensor([1])),                # one trial, poor fit, no break
        (t3, mag3, torch.tensor([5])),              # every trial skipped -> continue each time -> early return
    ]
