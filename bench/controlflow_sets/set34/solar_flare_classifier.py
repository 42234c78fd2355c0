"""Solar flare classifier for GOES X-ray light curves.

Takes a 1-8 Angstrom X-ray flux light curve (W/m^2), works in log10 space,
resamples short windows to a minimum length, encodes it with a stack of
residual conv blocks (ModuleList) and predicts the probability of an eruptive
event with a head chosen by the GOES class of the peak (A/B quiet, C moderate,
M/X strong). Also returns the GOES class index (0=A .. 4=X).

Kind T. Constructs: 1 (if/elif chain on the peak flux), 2 (branches assign the
same variables), 8 (branch on the light-curve length, a dynamic dim),
9 (loop over nn.ModuleList, config flag `subtract_background`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv1d(ch, ch, 5, padding=2)
        self.norm = nn.GroupNorm(4, ch)

    def forward(self, x):
        return x + F.gelu(self.norm(self.conv(x)))


class FlareClassifier(nn.Module):
    def __init__(self, ch=16, depth=3, min_len=64, subtract_background=True):
        super().__init__()
        self.min_len = min_len
        self.subtract_background = subtract_background
        self.stem = nn.Conv1d(1, ch, 7, padding=3)
        self.blocks = nn.ModuleList(ResBlock(ch) for _ in range(depth))
        self.heads = nn.ModuleList(nn.Linear(ch + 1, 2) for _ in range(3))

    def forward(self, flux):
        # flux: (1, T) in W/m^2
        logf = torch.log10(flux.clamp(min=1e-9))
        peak = logf.max()
        if peak >= -4.0:
            goes, head = 4, 2   # X
        elif peak >= -5.0:
            goes, head = 3, 2   # M
        elif peak >= -6.0:
            goes, head = 2, 1   # C
        elif peak >= -7.0:
            goes, head = 1, 0   # B
        else:
            goes, head = 0, 0   # A

        x = logf.unsqueeze(0)  # (1, 1, T)
        if self.subtract_background:
            x = x - x[..., :8].median()
        if x.shape[-1] < self.min_len:
            x = F.interpolate(x, size=self.min_len, mode="linear", align_corners=True)
        h = self.stem(x)
        for block in self.blocks:
            h = block(h)
        feat = torch.cat([h.mean(-1), (peak + 6.0).reshape(1, 1)], dim=1)
        probs = torch.softmax(self.heads[head](feat), dim=-1)
        return probs, torch.tensor([goes])


def model():
    torch.manual_seed(3405)
    return FlareClassifier().eval()


def _curve(n, peak_flux, background=2e-7, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    t0 = n * 0.4
    rise = torch.exp(-((t - t0) / (n * 0.05)) ** 2)
    decay = torch.exp(-(t - t0).clamp(min=0) / (n * 0.15))
    shape = torch.where(t < t0, rise, decay)
    noise = 1.0 + 0.05 * torch.rand(n, generator=g)
    return ((background + (peak_flux - background) * shape) * noise).unsqueeze(0)


def example_inputs():
    return (_curve(120, 3e-5, seed=1),)  # M3 flare, long curve


def dynamic_shapes():
    T = torch.export.Dim("samples", min=16, max=1024)
    return ({1: T},)


def verify_inputs():
    return [
        example_inputs(),                                  # M class, T >= 64 (no resample)
        (_curve(300, 2.5e-4, seed=2),),                    # X class, long
        (_curve(40, 4e-6, seed=3),),                       # C class, short -> resampled
        (_curve(16, 3e-7, background=1e-7, seed=4),),      # B class, shortest allowed -> resampled
        (_curve(64, 3e-8, background=1e-8, seed=5),),      # A class, exactly min_len (not resampled)
    ]
