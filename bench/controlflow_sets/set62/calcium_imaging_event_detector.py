"""Two-photon calcium imaging: per-cell baseline, dF/F events and cell typing.

For every ROI trace the baseline fluorescence is estimated by iterative sigma
clipping (transients are excluded until the kept set stops changing); short
recordings fall back to a low percentile. Events are upward threshold
crossings of the dF/F z-score, with a refractory period between events; each
event's amplitude is the peak within a short window. Per-cell summary
statistics feed a small classifier (e.g. excitatory vs. interneuron).

Kind: X.  Constructs: 1, 2, 3, 4, 5, 6, 7, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class CalciumEventDetector(nn.Module):
    def __init__(self, z_threshold=4.0, refractory=5, peak_window=6, min_frames_for_clipping=40,
                 max_clip_iters=6, n_types=3):
        super().__init__()
        self.classifier = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, n_types))
        self.z_threshold = z_threshold
        self.refractory = refractory
        self.peak_window = peak_window
        self.min_frames_for_clipping = min_frames_for_clipping
        self.max_clip_iters = max_clip_iters

    def baseline(self, f):
        if f.shape[0] < self.min_frames_for_clipping:
            # too few samples for clipping statistics: low-percentile baseline
            mu = torch.quantile(f, 0.2)
            return mu, (f - mu).abs().median().clamp(min=1e-3) * 1.4826
        keep = torch.ones_like(f, dtype=torch.bool)
        mu, sd = f.mean(), f.std()
        changed = torch.tensor(True)
        iters = 0
        while changed and iters < self.max_clip_iters:
            mu, sd = f[keep].mean(), f[keep].std()
            new_keep = f < mu + 3.0 * sd
            changed = (new_keep != keep).any()
            keep = new_keep
            iters += 1
        return mu, sd.clamp(min=1e-3)

    def detect_events(self, z):
        crossings = (z[1:] > self.z_threshold) & (z[:-1] <= self.z_threshold)
        onsets = torch.nonzero(crossings).flatten() + 1
        amplitudes = []
        last = -self.refractory - 1
        for onset in onsets:
            if onset - last <= self.refractory:
                continue  # still decaying from the previous event
            amplitudes.append(z[onset:onset + self.peak_window].max())
            last = onset
        return amplitudes

    def forward(self, traces):
        # traces: [C, T] raw fluorescence per ROI
        feats = []
        counts = []
        for c in range(traces.shape[0]):
            f = traces[c]
            mu, sd = self.baseline(f)
            z = (f - mu) / sd
            amps = self.detect_events(z)
            if len(amps) == 0:
                counts.append(torch.tensor(0.0))
                feats.append(torch.stack([torch.zeros(()), torch.zeros(()), z.std(), mu / 100.0]))
                continue
            amps = torch.stack(amps)
            counts.append(torch.tensor(float(amps.shape[0])))
            rate = amps.shape[0] / traces.shape[1] * 100.0
            feats.append(torch.stack([torch.tensor(rate), amps.mean() / 10.0, z.std(), mu / 100.0]))
        feats = torch.stack(feats)
        logits = self.classifier(feats)
        return torch.stack(counts), feats, logits


def model():
    torch.manual_seed(638)
    return CalciumEventDetector().eval()


def _traces(cells, frames, seed, events, tau=0.7):
    """events: per cell a list of onset frames for a fast-rise / exponential-decay transient.
    Values are integer ADC counts, as delivered by the acquisition board."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(frames, dtype=torch.float32)
    out = 100.0 + 2.0 * torch.randn(cells, frames, generator=g)
    for c, onsets in enumerate(events):
        for o in onsets:
            out[c] += 40.0 * torch.exp(-(t - o).clamp(min=0.0) / tau) * (t >= o).float()
    return (out.round(),)


def example_inputs():
    return _traces(3, 120, 1, [[20, 60], [], [30, 33, 90]])


def dynamic_shapes():
    return ({0: Dim("cells", min=2, max=32), 1: Dim("frames", min=16, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                                    # cell 0: two events; cell 1: silent (continue);
                                                             # cell 2: 2nd transient inside refractory -> skipped
        _traces(2, 24, 2, [[8], []]),                        # 24 frames < 40: percentile baseline branch
        _traces(4, 200, 7, [[10, 50, 90, 130, 170], [15], [], [100, 102, 150]]),  # busy cell; clipping iterates
        _traces(2, 60, 4, [[], []]),                         # both silent: no events anywhere
        _traces(2, 300, 5, [list(range(10, 290, 12)), [40]]),  # very active cell: clipping hits its iteration cap
    ]
