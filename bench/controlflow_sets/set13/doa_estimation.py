"""Direction-of-arrival estimation for a 4-mic linear array (smart speaker / robot head).

Learned pre-whitening filter, time-domain cross-correlation per mic pair over +-8 sample lags,
steered response power over a grid of angles, soft-argmax angle. Silence and diffuse noise
(no dominant peak) return "no source".
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

MAX_LAG = 8
PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
SPACING = 0.04  # m between neighbours
FS = 16000.0
C = 343.0


def pair_xcorr(a: torch.Tensor, b: torch.Tensor, max_lag: int) -> torch.Tensor:
    """Normalised cross-correlation of b against a for lags -max_lag..max_lag."""
    n = a.shape[0]
    out = []
    for lag in range(-max_lag, max_lag + 1):
        if lag >= 0:  # static
            out.append((a[: n - lag] * b[lag:]).mean())
        else:
            out.append((a[-lag:] * b[: n + lag]).mean())
    xc = torch.stack(out)
    return xc / (a.pow(2).mean().sqrt() * b.pow(2).mean().sqrt() + 1e-6)


class DoA(nn.Module):
    def __init__(self, n_angles: int = 37, silence: float = 1e-3, min_peak: float = 0.3):
        super().__init__()
        self.whiten = nn.Conv1d(1, 1, 9, padding=4)
        self.silence = silence
        self.min_peak = min_peak
        angles = torch.linspace(0, math.pi, n_angles)
        self.register_buffer("angles", angles)
        lags = []
        for i, j in PAIRS:
            lags.append((j - i) * SPACING * torch.cos(angles) / C * FS)
        self.register_buffer("lags", torch.stack(lags))  # (P, A) fractional lag

    def forward(self, sig: torch.Tensor):
        # sig: (4, T)
        energy = sig.pow(2).mean()
        if energy < self.silence:
            return torch.tensor(-1.0), torch.zeros(())
        x = sig.unsqueeze(1)
        x = x - 0.1 * self.whiten(x)
        x = x.squeeze(1)
        srp = torch.zeros(self.angles.shape[0])
        for p, (i, j) in enumerate(PAIRS):
            xc = pair_xcorr(x[i], x[j], MAX_LAG)
            pos = self.lags[p] + MAX_LAG
            lo = pos.floor().long().clamp(0, 2 * MAX_LAG - 1)
            frac = pos - lo.float()
            srp = srp + (1 - frac) * xc[lo] + frac * xc[lo + 1]
        srp = srp / len(PAIRS)
        peak = srp.max()
        if peak < self.min_peak:
            return torch.tensor(-1.0), peak
        wts = torch.softmax(srp / 0.02, 0)
        return (wts * self.angles).sum() * 180.0 / math.pi, peak


def model() -> nn.Module:
    torch.manual_seed(0)
    return DoA().eval()


def _capture(T, delay, level, seed, diffuse=False):
    g = torch.Generator().manual_seed(seed)
    src = torch.randn(T + 40, generator=g)
    src = F.avg_pool1d(src.view(1, 1, -1), 3, stride=1, padding=1).view(-1)
    if diffuse:
        return level * torch.randn(4, T, generator=g)
    mics = [src[20 + m * delay: 20 + m * delay + T] for m in range(4)]
    return level * (torch.stack(mics) + 0.05 * torch.randn(4, T, generator=g))


def example_inputs() -> tuple:
    return (_capture(256, 1, 0.5, 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=64, max=2048)},)


def verify_inputs() -> list:
    return [
        (_capture(512, -1, 0.3, 1),),           # source on the other side
        (_capture(128, 0, 0.01, 2),),           # silence
        (_capture(1024, 0, 0.5, 3, diffuse=True),),  # diffuse noise: no dominant peak
    ]
