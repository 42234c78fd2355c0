"""Row-by-row phase unwrapping of an InSAR interferogram patch.

Kind X. Constructs: 1, 2, 5, 6, 8.
Input: wrapped interferometric phase (H, W) in (-pi, pi] and the
coherence map.  Wide patches are multilooked 2x2 first (averaging the
complex phasor).  Noisy patches get a learned complex-domain denoising
pass.  Unwrapping integrates wrapped differences along the first column
and then along every row (Itoh); decorrelated rows are not integrated but
copied from the row above, and if too many rows are decorrelated the
patch is rejected and returned wrapped with a zero-confidence flag.
Output: unwrapped phase and a confidence value.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def wrap(p):
    return torch.remainder(p + math.pi, 2 * math.pi) - math.pi


def integrate_wrapped(p, start):
    d = wrap(p[1:] - p[:-1])
    return torch.cat([start.reshape(1), start + torch.cumsum(d, 0)])


def multilook(phase, coherence):
    z = torch.polar(torch.ones_like(phase), phase)
    re = F.avg_pool2d(z.real[None, None], 2)[0, 0]
    im = F.avg_pool2d(z.imag[None, None], 2)[0, 0]
    return torch.atan2(im, re), F.avg_pool2d(coherence[None, None], 2)[0, 0]


class PhaseUnwrapper(nn.Module):
    def __init__(self, multilook_above=64, noisy_coherence=0.6, min_row_coherence=0.3, max_bad_fraction=0.25):
        super().__init__()
        self.multilook_above = multilook_above
        self.noisy_coherence = noisy_coherence
        self.min_row_coherence = min_row_coherence
        self.max_bad_fraction = max_bad_fraction
        self.denoise = nn.Conv2d(2, 2, 3, padding=1, bias=False)
        with torch.no_grad():
            self.denoise.weight.mul_(0.05)

    def forward(self, phase, coherence):
        if phase.shape[1] > self.multilook_above:
            phase, coherence = multilook(phase, coherence)

        if coherence.mean() < self.noisy_coherence:
            z = torch.stack([torch.cos(phase), torch.sin(phase)])[None]
            z = z + self.denoise(z)
            phase = torch.atan2(z[0, 1], z[0, 0])

        h = phase.shape[0]
        first_col = integrate_wrapped(phase[:, 0], phase[0, 0])
        rows = []
        bad = 0
        for r in range(h):
            if coherence[r].mean() < self.min_row_coherence:
                bad += 1
                if bad > self.max_bad_fraction * h:
                    return phase, torch.zeros(())  # too decorrelated to trust any integration path
                rows.append(rows[-1] if rows else first_col[r].expand(phase.shape[1]))
                continue
            rows.append(integrate_wrapped(phase[r], first_col[r]))
        confidence = coherence.mean() * (1.0 - bad / h)
        return torch.stack(rows), confidence


def model():
    torch.manual_seed(3216)
    return PhaseUnwrapper().eval()


def _patch(seed, h, w, slope=(0.3, 0.5), coh=0.9, bad_rows=(), noise=0.05):
    g = torch.Generator().manual_seed(seed)
    yy = torch.arange(h, dtype=torch.float32)[:, None]
    xx = torch.arange(w, dtype=torch.float32)[None, :]
    true = slope[0] * yy + slope[1] * xx + 2.0 * torch.sin(xx / 9.0) * torch.cos(yy / 7.0)
    true = true + noise * torch.randn(h, w, generator=g)
    coherence = (coh + 0.05 * torch.randn(h, w, generator=g)).clamp(0.0, 1.0)
    for r in bad_rows:
        coherence[r] = 0.1
    return wrap(true), coherence


def example_inputs():
    # clean 24x40 patch: row-by-row unwrapping, no multilook, no denoise
    return _patch(1, 24, 40)


def dynamic_shapes():
    h = torch.export.Dim("rows", min=4, max=256)
    w = torch.export.Dim("cols", min=4, max=256)
    return ({0: h, 1: w}, {0: h, 1: w})


def verify_inputs():
    return [
        example_inputs(),                                          # all rows coherent
        _patch(2, 20, 96, slope=(0.15, 0.2)),                      # wide patch: 2x2 multilook first
        _patch(3, 16, 24, coh=0.5, noise=0.02),                    # low mean coherence: learned denoising pass
        _patch(4, 16, 16, bad_rows=(0, 1, 7)),                     # decorrelated rows incl. the first: copied (both ternary arms)
        _patch(5, 12, 20, bad_rows=(2, 3, 4, 5)),                  # too many bad rows -> early return from inside the loop
        _patch(6, 4, 4),                                           # minimum size
    ]
