"""Radio astronomy: flag radio-frequency interference in a dynamic spectrum by iterative sigma clipping,
then flag whole channels / time samples that are mostly bad.

Kind X. Constructs: 1, 2, 3, 4, 5, 6, 7, 8.
"""
import torch
import torch.nn as nn


class RfiFlagger(nn.Module):
    def __init__(self, k_sigma=4.0, max_iter=6, chan_frac=0.5, time_frac=0.6):
        super().__init__()
        self.k_sigma = k_sigma
        self.max_iter = max_iter
        self.chan_frac = chan_frac
        self.time_frac = time_frac
        # learned data-quality score from summary statistics of the cleaned spectrum
        self.quality = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def _bandpass(self, spec):
        # divide out the receiver bandpass; median is robust but needs enough samples
        if spec.shape[0] >= 8:
            bp = spec.median(dim=0).values
        else:
            bp = spec.mean(dim=0)
        return spec / bp.clamp(min=1e-6)

    def _clip_once(self, data, flags):
        w = (~flags).to(data.dtype)
        n = w.sum()
        mu = (data * w).sum() / n
        sd = (((data - mu) ** 2) * w).sum().div(n).sqrt()
        return (~flags) & ((data - mu).abs() > self.k_sigma * sd)

    def forward(self, spec):
        data = self._bandpass(spec)
        flags = torch.zeros_like(data, dtype=torch.bool)
        new = self._clip_once(data, flags)
        it = 1
        while new.any() and it < self.max_iter:
            flags = flags | new
            new = self._clip_once(data, flags)
            it += 1
        flags = flags | new

        n_time, n_chan = data.shape
        for c in range(n_chan):
            frac = flags[:, c].to(data.dtype).mean()
            if frac < self.chan_frac:
                continue
            flags[:, c] = True  # mostly bad channel: flag it entirely
        bad_time = flags.to(data.dtype).mean(1) > self.time_frac
        if bad_time.any():
            flags = flags | bad_time[:, None]  # broadband bursts (lightning, radar)

        clean = torch.where(flags, torch.zeros_like(data), data)
        good = (~flags).to(data.dtype)
        stats = torch.stack([good.mean(), clean.sum() / good.sum().clamp(min=1.0), torch.tensor(float(it), dtype=data.dtype) / self.max_iter])
        return flags.to(data.dtype), clean, self.quality(stats).squeeze(-1)


def model():
    torch.manual_seed(36017)
    return RfiFlagger().eval()


def _spectrum(seed, t, c, spikes=0, bad_chan=(), burst=(), spike_amp=30.0):
    g = torch.Generator().manual_seed(seed)
    bandpass = 1.0 + 0.5 * torch.sin(torch.linspace(0, 3.0, c))
    spec = bandpass * (1.0 + 0.05 * torch.randn(t, c, generator=g))
    for k in range(spikes):
        i = int(torch.randint(0, t, (1,), generator=g))
        j = int(torch.randint(0, c, (1,), generator=g))
        spec[i, j] *= spike_amp * (1 + k % 3)
    for j in bad_chan:
        spec[:, j] *= 1.0 + 8.0 * torch.rand(t, generator=g)
    for i in burst:
        spec[i, :] *= 6.0
    return spec


def example_inputs():
    # 32 x 16: a handful of narrow spikes -> a few clipping rounds, no bad channels
    return (_spectrum(1, 32, 16, spikes=6),)


def dynamic_shapes():
    t = torch.export.Dim("t", min=4, max=1024)
    c = torch.export.Dim("c", min=4, max=1024)
    return ({0: t, 1: c},)


def verify_inputs():
    return [
        example_inputs(),                                          # clipping converges, channels all kept
        (_spectrum(2, 24, 12, spikes=4, bad_chan=(3, 7)),),        # RFI channels: loop stops at max_iter; ch 7 flagged whole, ch 3 (42%) kept
        (_spectrum(3, 6, 10, spikes=0),),                          # short (mean bandpass), clean: while runs 0x
        (_spectrum(4, 40, 20, spikes=20, burst=(5, 17)),),         # broadband bursts -> time samples flagged
        (_spectrum(5, 48, 8, spikes=30, spike_amp=3.0),),          # many mild spikes -> five clipping rounds
    ]
