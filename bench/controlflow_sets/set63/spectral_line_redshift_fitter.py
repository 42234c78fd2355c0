"""Emission-line redshift finder for a survey spectroscopy pipeline.

Kind X.  Constructs: 1, 2, 3, 4, 5, 6, 7, 9.
1. continuum level and noise from iterative sigma clipping (`while` until the
   clip mask stops changing);
2. emission peaks: a pixel loop with `continue` below 5 sigma and a local-max test;
3. redshift: the strongest peak is tried as each catalogue line (z outside
   [0, 1] skipped), the other catalogue lines are looked for at the implied
   wavelengths, and the first hypothesis confirmed by enough lines wins (break);
4. an MLP classifies the galaxy from the fit.  No peaks / no secure redshift
   return early with z = -1.
"""
import torch
import torch.nn as nn
from torch.export import Dim

PIXELS = Dim("pixels", min=64, max=2048)

REST_LINES = [6562.8, 5006.8, 4861.3, 3727.0]   # H-alpha, [OIII], H-beta, [OII] (Angstrom)


def sigma_clip(flux, k=3.0, max_iter=10):
    mask = torch.ones_like(flux)
    changed = torch.tensor(True)
    it = 0
    while changed and it < max_iter:
        mu = (flux * mask).sum() / mask.sum()
        sd = torch.sqrt(((flux - mu) ** 2 * mask).sum() / mask.sum())
        new_mask = ((flux - mu).abs() < k * sd).float()
        changed = (new_mask != mask).any()
        mask = new_mask
        it += 1
    return mu, sd


def find_peaks(resid, thr):
    peaks = []
    for i in range(1, resid.shape[0] - 1):
        if resid[i] < thr:
            continue
        if resid[i] > resid[i - 1] and resid[i] >= resid[i + 1]:
            peaks.append(i)
    return peaks


class RedshiftFinder(nn.Module):
    def __init__(self, min_confirm=2):
        super().__init__()
        self.classifier = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
        self.min_confirm = min_confirm

    def forward(self, wavelength, flux):
        mu, sd = sigma_clip(flux)
        resid = flux - mu
        peaks = find_peaks(resid, 5.0 * sd)
        if len(peaks) == 0:
            return torch.tensor(-1.0), torch.zeros(3)

        peak_idx = torch.tensor(peaks)
        peak_lam = wavelength[peak_idx]
        strongest = peak_lam[resid[peak_idx].argmax()]
        tol = 1.5 * (wavelength[1] - wavelength[0])

        best_z = torch.tensor(-1.0)
        n_match = 0
        for rest in REST_LINES:
            z = strongest / rest - 1.0
            if z < 0.0 or z > 1.0:
                continue
            count = 0
            for other in REST_LINES:
                if other == rest:
                    continue
                if ((peak_lam - other * (1.0 + z)).abs() < tol).any():
                    count += 1
            if count >= self.min_confirm:
                best_z, n_match = z, count
                break
        if best_z < 0:
            return best_z, torch.zeros(3)

        feats = torch.stack([best_z, torch.tensor(len(peaks) / 10.0), torch.tensor(n_match / 3.0),
                             resid.max() / (100.0 * sd)])
        return best_z, torch.softmax(self.classifier(feats), dim=-1)


def model():
    torch.manual_seed(63019)
    return RedshiftFinder().eval()


def _spectrum(n, seed, z=None, lines=(), extra=()):
    """lines: (rest wavelength, amplitude) at redshift z; extra: (observed wavelength, amplitude)."""
    g = torch.Generator().manual_seed(seed)
    lam = torch.linspace(4000.0, 9000.0, n)
    step = (lam[1] - lam[0]).item()
    flux = 10.0 + (torch.rand(n, generator=g) * 2.0 - 1.0)       # continuum with uniform noise
    centres = [(rest * (1.0 + z), amp) for rest, amp in lines] + list(extra)
    for centre, amp in centres:
        flux = flux + amp * torch.exp(-0.5 * ((lam - centre) / (0.6 * step)) ** 2)
    return lam, flux


def example_inputs():
    return _spectrum(512, 1, z=0.1, lines=[(6562.8, 60.0), (5006.8, 40.0), (4861.3, 25.0), (3727.0, 20.0)])


def dynamic_shapes():
    return ({0: PIXELS}, {0: PIXELS})


def verify_inputs():
    return [
        example_inputs(),                                        # H-alpha hypothesis confirmed at once
        _spectrum(128, 2),                                       # no emission line: first early return
        _spectrum(700, 3, z=0.35, lines=[(6562.8, 30.0), (5006.8, 80.0), (4861.3, 25.0), (3727.0, 35.0)]),
        # ^ [OIII] strongest: H-alpha hypothesis unconfirmed (count 0), then [OIII] confirmed -> break
        _spectrum(256, 4, extra=[(8000.0, 50.0)]),               # single line: every hypothesis fails,
                                                                 # [OII] would need z > 1 -> z = -1 return
        _spectrum(1024, 5, z=0.02, lines=[(5006.8, 70.0), (4861.3, 30.0), (6562.8, 40.0)]),
        # ^ strongest at 5107 A: H-alpha hypothesis has z < 0 (skipped), [OIII] confirmed
    ]
