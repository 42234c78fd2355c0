"""Exoplanet transit search on photometric light curves (kind T).

A light curve (B, T) of normalised flux is detrended with a running mean, a robust
(median / MAD) noise level is estimated and, if no dip reaches the detection threshold,
the curve is rejected early.  Otherwise a small 1-D CNN (local + global view, as in
AstroNet-style classifiers) scores the candidate.  Long baselines are binned by 2 first.

constructs: 1 (if on tensor reduction), 2 (early return), 8 (branch on T), 9 (config flags)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TransitClassifier(nn.Module):
    def __init__(self, detrend=True, use_global_view=True, detect_sigma=7.0, long_baseline=256):
        super().__init__()
        self.detrend = detrend
        self.use_global_view = use_global_view
        self.detect_sigma = detect_sigma
        self.long_baseline = long_baseline
        self.local_view = nn.Sequential(
            nn.Conv1d(1, 8, 5, padding=2), nn.ReLU(),
            nn.Conv1d(8, 8, 5, padding=2), nn.ReLU(),
        )
        self.global_view = nn.Sequential(nn.Conv1d(1, 8, 9, padding=4), nn.ReLU())
        self.head = nn.Linear(16 if use_global_view else 8, 1)

    def forward(self, flux):
        if self.detrend:
            trend = F.avg_pool1d(flux.unsqueeze(1), 31, stride=1, padding=15,
                                 count_include_pad=False).squeeze(1)
            flux = flux - trend

        med = flux.median(dim=1, keepdim=True).values
        sigma = 1.4826 * (flux - med).abs().median(dim=1, keepdim=True).values + 1e-6
        dip_snr = ((med - flux) / sigma).amax(dim=1)

        if dip_snr.max() < self.detect_sigma:
            # nothing transit-like in the whole batch: skip the classifier
            return torch.zeros(flux.shape[0]), dip_snr

        x = ((flux - med) / sigma).unsqueeze(1)
        if flux.shape[1] > self.long_baseline:
            x = F.avg_pool1d(x, 2)

        feat = self.local_view(x).amax(dim=2)
        if self.use_global_view:
            feat = torch.cat([feat, self.global_view(x).mean(dim=2)], dim=1)
        prob = torch.sigmoid(self.head(feat)).squeeze(1)
        return prob, dip_snr


def model():
    torch.manual_seed(301)
    return TransitClassifier().eval()


def _curve(batch, length, seed, dips=()):
    g = torch.Generator().manual_seed(seed)
    flux = 1.0 + 0.001 * torch.randn(batch, length, generator=g)
    # slow stellar variability, removed by the detrending
    t = torch.arange(length, dtype=torch.float32)
    flux = flux + 0.002 * torch.sin(t / 40.0)
    for b, start, width, depth in dips:
        flux[b, start:start + width] -= depth
    return flux


def example_inputs():
    return (_curve(2, 200, 0, dips=[(0, 80, 6, 0.01)]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16),
             1: torch.export.Dim("time", min=64, max=1024)},)


def verify_inputs():
    return [
        example_inputs(),                                      # dip found, T=200 <= 256: no binning
        (_curve(3, 400, 1, dips=[(2, 150, 8, 0.012)]),),       # dip found, T=400 > 256: binned by 2
        (_curve(2, 120, 2),),                                  # pure noise: early return
        (_curve(4, 600, 3),),                                  # pure noise, long: early return
    ]
