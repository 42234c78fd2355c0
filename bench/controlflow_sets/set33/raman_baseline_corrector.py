"""Raman spectrum pre-processing + classifier.

Cosmic-ray spike removal, then iterative modified-polyfit baseline removal
(Lieber & Mahadevan-Jansen): fit a polynomial, clip the working spectrum to the
fit, repeat until it stops changing.  The corrected spectra are pooled to a
fixed number of bands and classified (e.g. polymer type).

spectra: [batch, wavenumbers] (both dynamic).
Returns (corrected spectra, class logits, iterations used).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class RamanBaseline(nn.Module):
    def __init__(self, order=4, max_iter=12, tol=3.2e-3, despike=True, n_classes=5):
        super().__init__()
        self.order = order
        self.max_iter = max_iter
        self.tol = tol
        self.despike = despike
        self.classifier = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def remove_spikes(self, y, k=30.0):
        # cosmic rays are single-pixel: compare every point with its larger neighbour
        padded = F.pad(y.unsqueeze(1), (2, 2), mode="replicate").squeeze(1)
        med = padded.unfold(-1, 5, 1).median(dim=-1).values
        excess = y - torch.maximum(padded[:, 1:-3], padded[:, 3:-1])
        noise = (y[:, 1:] - y[:, :-1]).abs().median(dim=-1, keepdim=True).values
        spikes = excess > k * noise
        if spikes.any():
            y = torch.where(spikes, med, y)
        return y

    def fit_poly(self, y, vander):
        # least squares for every spectrum at once: (V^T V)^-1 V^T y
        gram = vander.T @ vander
        coef = torch.linalg.solve(gram, vander.T @ y.T)
        return (vander @ coef).T

    def forward(self, spectra):
        n = spectra.shape[1]
        x = torch.linspace(-1.0, 1.0, n)
        vander = torch.stack([x ** k for k in range(self.order + 1)], dim=1)

        y = spectra
        if self.despike:  # static
            y = self.remove_spikes(y)

        base = y
        change = torch.tensor(float("inf"))
        it = 0
        while change > self.tol and it < self.max_iter:
            fit = self.fit_poly(base, vander)
            new_base = torch.minimum(base, fit)
            change = (new_base - base).norm() / base.norm()
            base = new_base
            it += 1

        corrected = y - base
        bands = F.adaptive_avg_pool1d(corrected.unsqueeze(1), 32).squeeze(1)
        bands = bands / (bands.abs().amax(dim=-1, keepdim=True) + 1e-6)
        return corrected, self.classifier(bands), torch.tensor(it)


def model():
    torch.manual_seed(5)
    return RamanBaseline().eval()


def _spectra(batch, n, seed, fluorescence=1.0, spike=False, curvature=1.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.linspace(0.0, 1.0, n)
    out = []
    for b in range(batch):
        bg = fluorescence * (2.0 + 1.5 * curvature * x - 1.2 * curvature * x ** 2 + 0.4 * torch.rand((), generator=g))
        peaks = torch.zeros(n)
        for _ in range(4):
            c = torch.rand((), generator=g)
            w = 0.02 + 0.02 * torch.rand((), generator=g)
            peaks = peaks + (0.5 + torch.rand((), generator=g)) * torch.exp(-0.5 * ((x - c) / w) ** 2)
        noise = 0.01 * torch.randn(n, generator=g)
        out.append(bg + peaks + noise)
    s = torch.stack(out)
    if spike:
        s[0, n // 3] += 25.0
        s[-1, (2 * n) // 3] += 18.0
    return s


def example_inputs():
    return (_spectra(4, 300, 1),)


def dynamic_shapes():
    return ({0: Dim("batch", min=2, max=16), 1: Dim("wavenumbers", min=64, max=2048)},)


def verify_inputs():
    return [
        example_inputs(),                                    # no spikes; baseline loop stops on tolerance (9 iters)
        (_spectra(3, 500, 2, spike=True),),                  # cosmic-ray spikes: despike branch taken (8 iters)
        (_spectra(2, 128, 3, fluorescence=0.0),),            # no background: relative change stays large, hits max_iter
        (_spectra(2, 1024, 4, fluorescence=30.0, curvature=6.0),),  # huge smooth background: stops after 1 iteration
    ]
