"""Lab CCD spectrometer reduction: clip saturated pixels, combine repeated
exposures (median when there are enough), subtract the dark frame, flat-field,
remove a rolling-minimum baseline, wavelength-calibrate, and, when the signal is
strong enough, classify the emission features and list line centroids."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class FrameCombiner(nn.Module):
    def __init__(self, median_from=3):
        super().__init__()
        self.median_from = median_from

    def forward(self, frames):
        if frames.shape[0] >= self.median_from:
            return frames.median(dim=0).values  # rejects single-frame cosmic hits
        return frames.mean(dim=0)


class SpectrumReducer(nn.Module):
    def __init__(self):
        super().__init__()
        self.combiner = FrameCombiner()
        self.saturation = 60000.0
        self.register_buffer("dispersion", torch.tensor([400.0, 0.55, 2.0e-5]))  # nm = c0 + c1 p + c2 p^2
        self.baseline_passes = 4
        self.baseline_width = 15
        self.min_snr = 5.0
        self.max_lines = 8
        self.features = nn.Conv1d(1, 4, 9, padding=4)
        self.classifier = nn.Linear(8, 4)

    def line_centroids(self, spec, wavelength):
        is_peak = (spec[1:-1] > spec[:-2]) & (spec[1:-1] >= spec[2:]) & (spec[1:-1] > 0.3 * spec.max())
        peak_idx = torch.nonzero(is_peak).squeeze(1) + 1
        n_peaks = int(is_peak.sum().item())
        centroids = []
        for k in range(min(n_peaks, self.max_lines)):
            p = int(peak_idx[k])
            lo, hi = max(p - 3, 0), min(p + 4, spec.shape[0])
            w = spec[lo:hi].clamp(min=0.0)
            centroids.append((w * wavelength[lo:hi]).sum() / w.sum().clamp(min=1e-6))
        while len(centroids) < self.max_lines:
            centroids.append(torch.zeros(()))
        return torch.stack(centroids)

    def rolling_min_baseline(self, spec):
        base = spec
        for _ in range(self.baseline_passes):
            mins = -F.max_pool1d(-base[None, None], self.baseline_width, stride=1, padding=self.baseline_width // 2)
            base = F.avg_pool1d(mins, self.baseline_width, stride=1, padding=self.baseline_width // 2,
                                count_include_pad=False)[0, 0]
        return base

    def forward(self, frames, dark, flat):
        saturated = frames >= self.saturation
        n_sat = saturated.sum()
        if saturated.any():
            frames = torch.where(saturated, torch.full_like(frames, self.saturation), frames)
        spec = self.combiner(frames) - dark
        gain = flat / flat.mean()
        spec = spec / gain.clamp(min=0.05)
        spec = spec - self.rolling_min_baseline(spec)
        pix = torch.arange(spec.shape[0], dtype=spec.dtype)
        wavelength = self.dispersion[0] + self.dispersion[1] * pix + self.dispersion[2] * pix ** 2
        noise = spec[: spec.shape[0] // 4].std().clamp(min=1.0)
        if spec.max() / noise < self.min_snr:
            return wavelength, spec, torch.zeros(4), torch.zeros(self.max_lines), n_sat
        h = torch.relu(self.features((spec / spec.max())[None, None]))[0]
        logits = self.classifier(torch.cat([h.mean(1), h.amax(1)]))
        probs = logits if self.training else torch.softmax(logits, 0)
        return wavelength, spec, probs, self.line_centroids(spec, wavelength), n_sat


def model():
    torch.manual_seed(5209)
    return SpectrumReducer().eval()


def _exposures(f, length, seed, peak, n_lines=3):
    g = torch.Generator().manual_seed(seed)
    pix = torch.arange(length, dtype=torch.float32)
    signal = torch.zeros(length)
    for c in torch.linspace(length * 0.35, length * 0.9, n_lines):
        signal = signal + peak * torch.exp(-0.5 * ((pix - c) / 2.5) ** 2)
    dark = 300.0 + 20.0 * torch.rand(length, generator=g)
    flat = 0.9 + 0.2 * torch.rand(length, generator=g)
    frames = (signal * flat + dark + 500.0 + 0.002 * pix ** 2)[None] + 30.0 * torch.randn(f, length, generator=g)
    return frames, dark, flat


def example_inputs():
    return _exposures(4, 256, 1, 8000.0)


def dynamic_shapes():
    pixels = Dim("pixels", min=64, max=512)
    return {0: Dim("exposures", min=2, max=16), 1: pixels}, {0: pixels}, {0: pixels}


def verify_inputs():
    return [
        example_inputs(),                       # median combine, strong lines -> classify
        _exposures(2, 64, 2, 9000.0, 1),        # min sizes: mean combine, classify
        _exposures(16, 512, 3, 70000.0),        # max sizes, saturated lines -> clipped
        _exposures(3, 300, 4, 20.0),            # faint: below SNR -> early return
    ]
