"""Cognitive-radio spectrum sensing for a secondary (unlicensed) transmitter.

Baseband samples from 8 sub-channels are energy-detected (Welch-averaged when
the capture is long enough), compared with an estimated noise floor, and a
cyclostationary pilot detector protects licensed users. The radio picks the
first idle channel, or backs off when every channel is busy.
Constructs: 1, 3, 5, 6, 7, 8, 9
"""
import torch
import torch.nn as nn


class ChannelSensing(nn.Module):
    def __init__(self, n_channels=8, seg_len=64, threshold_db=6.0):
        super().__init__()
        self.n_channels = n_channels
        self.seg_len = seg_len
        self.threshold_db = threshold_db
        self.register_buffer("window", torch.hann_window(seg_len))

    def band_power(self, x):
        n = x.shape[-1]
        if n >= 4 * self.seg_len:
            # Welch: average periodograms of windowed segments
            segs = []
            for start in range(0, n - self.seg_len + 1, self.seg_len):
                seg = x[start:start + self.seg_len] * self.window
                segs.append(torch.fft.rfft(seg).abs() ** 2)
            psd = torch.stack(segs).mean(dim=0) / (self.window ** 2).sum()
        else:
            psd = torch.fft.rfft(x).abs() ** 2 / n
        return psd.mean()

    def forward(self, samples, noise_floor):
        powers = []
        for c in range(self.n_channels):
            powers.append(self.band_power(samples[c]))
        powers = torch.stack(powers)
        snr_db = 10.0 * torch.log10(powers / noise_floor.clamp(min=1e-9))

        # licensed users carry a pilot tone with a 4-sample period: lag-4 autocorrelation
        lagged = (samples[:, 4:] * samples[:, :-4]).mean(dim=1) / (samples ** 2).mean(dim=1).clamp(min=1e-9)

        chosen = torch.tensor(-1)
        for c in range(self.n_channels):
            busy = snr_db[c] > self.threshold_db or lagged[c] > 0.5
            if busy:
                continue
            chosen = torch.tensor(c)
            break

        if chosen < 0:
            backoff_ms = torch.tensor(10.0) * (snr_db.min() / self.threshold_db).clamp(1.0, 8.0)
            return chosen, backoff_ms, snr_db
        return chosen, torch.tensor(0.0), snr_db


def model():
    return ChannelSensing().eval()


def _capture(n, occupied, pilot=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    x = 0.1 * torch.randn(8, n, generator=g)
    t = torch.arange(n, dtype=torch.float32)
    for c in occupied:
        x[c] += torch.randn(n, generator=g)
    for c in pilot:
        x[c] += 0.2 * torch.cos(2 * torch.pi * t / 4.0 + 0.3)
    return x


def example_inputs():
    return (_capture(128, occupied=(0, 1)), torch.tensor(0.01))


def dynamic_shapes():
    return ({1: torch.export.Dim("n", min=16, max=2048)}, None)


def verify_inputs():
    return [
        example_inputs(),                                                     # short capture; ch0,1 busy (energy) -> picks ch2
        (_capture(512, occupied=(1,), pilot=(0,), seed=1), torch.tensor(0.01)),  # Welch path; ch0 busy by pilot (`or`), ch1 energy -> ch2
        (_capture(64, occupied=(), seed=2), torch.tensor(0.01)),             # all idle -> ch0 on first iteration, no continue
        (_capture(300, occupied=range(8), seed=3), torch.tensor(0.01)),      # Welch; all busy -> back-off return
    ]
