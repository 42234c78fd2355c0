"""Muon chamber track-segment finder (road search).

hits[l, j] is the local x coordinate (mm) of hit j in detector layer l; the
layers are 30 mm apart. Every hit of the first layer seeds a road that is
followed outward layer by layer, picking the nearest hit to the straight-line
prediction. A road ends when no hit falls inside the search window; roads
with enough hits are fitted with a line and scored by a learned quality net.
The search stops early once the readout buffer of max_tracks is full.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

LAYER_PITCH_MM = 30.0


def fit_line(z, x):
    zm, xm = z.mean(), x.mean()
    slope = ((z - zm) * (x - xm)).sum() / ((z - zm) ** 2).sum()
    return xm - slope * zm, slope


def chi2_per_dof(z, x, sigma_mm):
    intercept, slope = fit_line(z, x)
    resid = (x - intercept - slope * z) / sigma_mm
    return (resid ** 2).sum() / max(z.shape[0] - 2, 1), intercept, slope


class TrackSegmentFinder(nn.Module):
    def __init__(self, window_mm=2.5, min_hits=4, max_tracks=4, sigma_mm=0.3):
        super().__init__()
        self.window_mm = window_mm
        self.min_hits = min_hits
        self.max_tracks = max_tracks
        self.sigma_mm = sigma_mm
        self.quality = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, hits):
        n_layers, n_hits = hits.shape
        tracks = []
        used = torch.zeros_like(hits, dtype=torch.bool)
        for seed in range(n_hits):
            xs = [hits[0, seed]]
            picked = [seed]
            zs = [torch.tensor(0.0)]
            slope = torch.tensor(0.0)
            for layer in range(1, n_layers):
                predicted = xs[-1] + slope * LAYER_PITCH_MM
                # the direction is unknown until the second hit: open the road wider
                window = 3.0 * self.window_mm if layer == 1 else self.window_mm
                resid = torch.where(used[layer], torch.full_like(hits[layer], float("inf")),
                                    (hits[layer] - predicted).abs())
                j = torch.argmin(resid)
                if resid[j] > window:
                    break  # road lost
                xs.append(hits[layer, j])
                picked.append(j)
                zs.append(torch.tensor(layer * LAYER_PITCH_MM))
                slope = (xs[-1] - xs[0]) / zs[-1]
            if len(xs) < self.min_hits:
                continue
            chi2, intercept, fitted_slope = chi2_per_dof(torch.stack(zs), torch.stack(xs), self.sigma_mm)
            q = torch.sigmoid(self.quality(torch.stack([chi2 / 10.0, torch.tensor(len(xs) / n_layers),
                                                        fitted_slope]))).squeeze(0)
            tracks.append(torch.stack([intercept, fitted_slope, q]))
            for layer, j in enumerate(picked):
                used[layer, j] = True
            if len(tracks) == self.max_tracks:
                break  # readout buffer full
        n_found = torch.tensor(len(tracks))
        if not tracks:
            return torch.zeros(self.max_tracks, 3), n_found
        found = torch.stack(tracks)
        return F.pad(found, (0, 0, 0, self.max_tracks - found.shape[0])), n_found


def model():
    torch.manual_seed(5515)
    return TrackSegmentFinder().eval()


def _event(layers, hits_per_layer, muons, seed, spread=200.0):
    """muons: list of (x0, slope); remaining hits are uniform noise."""
    g = torch.Generator().manual_seed(seed)
    hits = spread * (torch.rand(layers, hits_per_layer, generator=g) - 0.5)
    z = LAYER_PITCH_MM * torch.arange(layers, dtype=torch.float32)
    for m, (x0, slope) in enumerate(muons):
        hits[:, m] = x0 + slope * z + 0.3 * torch.randn(layers, generator=g)
    perm = torch.randperm(hits_per_layer, generator=g)
    return (hits[:, perm],)


def example_inputs():
    return _event(6, 10, [(-20.0, 0.1), (35.0, -0.05)], 6)


def dynamic_shapes():
    layers = torch.export.Dim("layers", min=3, max=12)
    hits = torch.export.Dim("hits_per_layer", min=2, max=32)
    return ({0: layers, 1: hits},)


def verify_inputs():
    return [
        example_inputs(),                                           # two muons among noise: 2 tracks, noise roads die (break, continue)
        _event(3, 2, [(0.0, 0.02)], 2, spread=2000.0),              # layers=min, hits=min: 3 hits < min_hits -> no track, zeros
        _event(12, 32, [(-60.0, 0.05), (-20.0, -0.1), (10.0, 0.0),
                        (40.0, 0.12), (70.0, -0.02)], 3, spread=800.0),  # layers=max, hits=max: 5 muons -> buffer full, early exit
        _event(8, 6, [(5.0, 0.2)], 4, spread=600.0),                # steep single muon, sparse noise
    ]
