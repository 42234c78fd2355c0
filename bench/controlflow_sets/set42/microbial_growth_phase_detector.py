"""Plate-reader growth-curve analysis (OD600 time series of one well).

log(OD) is smoothed with a learned 5-tap filter and differentiated to get the
specific growth rate. Wells whose maximum rate stays below a floor are called
"no growth". Otherwise the lag phase ends at the first sample whose rate exceeds
a quarter of the maximum, and the stationary phase starts at the first sample
after the peak whose rate falls below a tenth of it. Returns per-sample phase
labels (0 lag / no growth, 1 exponential, 2 stationary), the maximum rate and
the doubling time.

Kind: T. Constructs: 1, 2, 3, 4, 7.
"""
import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim


def first_crossing(rate, start, threshold, above):
    """Index of the first sample >= start where rate goes above/below threshold (len(rate) if never)."""
    i = start
    n = rate.shape[0]
    if above:
        while i < n and rate[i] <= threshold:
            i += 1
    else:
        while i < n and rate[i] >= threshold:
            i += 1
    return i


class GrowthPhaseDetector(nn.Module):
    def __init__(self, min_rate=0.05, interval_h=0.25):
        super().__init__()
        self.smoother = nn.Conv1d(1, 1, 5, bias=False)
        with torch.no_grad():
            self.smoother.weight.copy_(0.2 + 0.01 * torch.randn(1, 1, 5))
        self.min_rate = min_rate
        self.interval_h = interval_h

    def growth_rate(self, od):
        log_od = torch.log(od.clamp(min=1e-3))
        smooth = self.smoother(F.pad(log_od.view(1, 1, -1), (2, 2), mode="replicate"))
        smooth = smooth.view(-1)
        rate = (smooth[1:] - smooth[:-1]) / self.interval_h
        return torch.cat([rate[:1], rate])  # keep one rate per sample

    def forward(self, od):
        rate = self.growth_rate(od)
        mu_max = rate.max()
        labels = torch.zeros(od.shape[0], dtype=torch.long)
        if mu_max < self.min_rate:
            return labels, mu_max.reshape(1), torch.zeros(1)  # doubling time n/a
        lag_end = first_crossing(rate, 0, 0.25 * mu_max, above=True)
        stat_start = first_crossing(rate, lag_end, 0.1 * mu_max, above=False)
        labels[lag_end:stat_start] = 1
        if stat_start < od.shape[0]:
            labels[stat_start:] = 2
        doubling_h = math.log(2.0) / mu_max
        return labels, mu_max.reshape(1), doubling_h.reshape(1)


def model():
    torch.manual_seed(4206)
    return GrowthPhaseDetector().eval()


def _logistic(n, lag_h, mu, od0=0.02, odmax=1.2, noise=0.0, seed=0, interval_h=0.25):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) * interval_h
    # modified Gompertz curve in log space (Zwietering 1990)
    a = math.log(odmax / od0)
    y = a * torch.exp(-torch.exp(mu * math.e / a * (lag_h - t) + 1.0))
    return (od0 * torch.exp(y) * (1 + noise * torch.randn(n, generator=g)),)


def example_inputs():
    return _logistic(96, lag_h=4.3, mu=0.65, noise=0.002)


def dynamic_shapes():
    return ({0: Dim("reads", min=4, max=384)},)


def verify_inputs():
    return [
        example_inputs(),                                  # lag, exponential and stationary phases
        (0.05 + 0.0 * torch.arange(48, dtype=torch.float32),),   # flat well -> no growth early return
        _logistic(40, lag_h=-2.0, mu=0.8),                 # growing from the first read: lag loop runs 0 times
        _logistic(30, lag_h=5.0, mu=0.5),                  # still exponential at the end: stationary never reached
        _logistic(160, lag_h=9.2, mu=0.3, noise=0.002, seed=3),  # long slow culture
    ]
