"""1-D NMR spectrum peak picker.

Baseline-corrects a real spectrum, smooths it, estimates the noise with the
median absolute deviation and marks local maxima above an SNR threshold. A
small learned head scores the peak confidence; the output is the peak mask,
the chemical shift (ppm) of the strongest peak and its confidence.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def moving_average(x, width):
    kernel = torch.ones(1, 1, width, dtype=x.dtype) / width
    y = F.conv1d(x.view(1, 1, -1), kernel, padding=width // 2)
    return y.view(-1)[: x.shape[0]]


def mad_noise(x):
    return 1.4826 * (x - x.median()).abs().median()


class NmrPeakPicker(nn.Module):
    def __init__(self, snr=6.0):
        super().__init__()
        self.snr = snr
        self.confidence = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, spectrum, ppm_window):
        n = spectrum.shape[0]
        if n > 128:
            # high-resolution acquisition: rolling baseline and wider smoothing
            baseline = moving_average(spectrum, 31).clamp(max=spectrum.median())
            width = 7
        else:
            baseline = spectrum.min()
            width = 3
        corrected = spectrum - baseline
        smooth = moving_average(corrected, width)
        thresh = self.snr * mad_noise(smooth)

        mid = smooth[1:-1]
        is_peak = (mid > smooth[:-2]) & (mid >= smooth[2:]) & (mid > thresh)
        is_peak = F.pad(is_peak, (1, 1))
        if not is_peak.any():
            # nothing above the noise floor (empty tube / failed shim)
            return is_peak.long(), ppm_window[0], torch.zeros(())

        heights = torch.where(is_peak, smooth, torch.full_like(smooth, -1.0))
        k = torch.argmax(heights)
        ppm = ppm_window[0] + (ppm_window[1] - ppm_window[0]) * k.float() / (n - 1)
        feats = torch.stack([smooth[k] / (thresh + 1e-6) / 100.0, is_peak.float().sum() / n, ppm / 12.0])
        conf = torch.sigmoid(self.confidence(feats)).squeeze(0)
        return is_peak.long(), ppm, conf


def model():
    torch.manual_seed(5508)
    return NmrPeakPicker().eval()


def _spectrum(n, centers, seed, noise=0.01, tilt=0.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.linspace(0.0, 1.0, n)
    y = noise * torch.randn(n, generator=g) + tilt * x
    for i, (c, h) in enumerate(centers):
        gamma = 0.004 + 0.001 * i
        y = y + h * gamma ** 2 / ((x - c) ** 2 + gamma ** 2)
    return y, torch.tensor([0.5, 10.0])


def example_inputs():
    return _spectrum(256, [(0.3, 1.0), (0.62, 0.55), (0.8, 0.3)], 1, tilt=0.05)


def dynamic_shapes():
    points = torch.export.Dim("points", min=16, max=512)
    return ({0: points}, None)


def verify_inputs():
    return [
        example_inputs(),                                    # n>128: rolling baseline, three peaks
        _spectrum(16, [(0.5, 2.0)], 2, noise=0.001),         # points=min: global-min baseline, one peak
        _spectrum(512, [(0.1, 0.4), (0.45, 1.3)], 3),        # points=max, two peaks
        (torch.full((64,), 0.02), torch.tensor([0.5, 10.0])),  # flat empty spectrum -> no peaks, early return
        _spectrum(100, [(0.7, 0.8), (0.2, 0.6)], 4),         # n<=128 with noise
    ]
