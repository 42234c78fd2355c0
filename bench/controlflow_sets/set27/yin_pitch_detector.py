"""YIN fundamental-frequency estimator for one audio frame (8 kHz).

Computes the squared-difference function for every candidate lag, normalizes
it by its cumulative mean, takes the first lag below the absolute threshold,
walks down to the local minimum and refines it with parabolic interpolation.
Frames with no dip below the threshold are reported unvoiced.
"""
import torch
import torch.nn as nn


class YinPitchDetector(nn.Module):
    def __init__(self, sample_rate=8000, fmin=80.0, fmax=800.0, threshold=0.15):
        super().__init__()
        self.sample_rate = sample_rate
        self.min_lag = int(sample_rate / fmax)
        self.max_lag = int(sample_rate / fmin)
        self.threshold = threshold
        self.voicing = nn.Linear(2, 1)

    def difference(self, x, max_lag):
        w = x.shape[0] - max_lag
        diffs = [torch.zeros(())]
        for tau in range(1, max_lag):
            diffs.append(((x[:w] - x[tau:tau + w]) ** 2).sum())
        return torch.stack(diffs)

    def forward(self, frame):
        # frame: [N] samples
        n = frame.shape[0]
        if n // 2 < self.max_lag:
            max_lag = n // 2
        else:
            max_lag = self.max_lag
        x = frame - frame.mean()
        d = self.difference(x, max_lag)
        taus = torch.arange(1, max_lag, dtype=torch.float32)
        cmnd = torch.cat([torch.ones(1), d[1:] * taus / torch.cumsum(d[1:], 0).clamp(min=1e-8)])
        best = -1
        for tau in range(self.min_lag, max_lag - 1):
            if cmnd[tau] < self.threshold:
                while tau + 2 < max_lag and cmnd[tau + 1] < cmnd[tau]:
                    tau += 1
                best = tau
                break
        if best < 0:
            return torch.zeros(()), torch.zeros(())
        a, b, c = cmnd[best - 1], cmnd[best], cmnd[best + 1]
        shift = 0.5 * (a - c) / (a - 2.0 * b + c).clamp(min=1e-6)
        period = best + shift.clamp(-0.5, 0.5)
        energy = (x ** 2).mean().sqrt()
        voiced_prob = torch.sigmoid(self.voicing(torch.stack([1.0 - b, energy])) * 4.0).squeeze(-1)
        return self.sample_rate / period, voiced_prob


def model():
    torch.manual_seed(0)
    return YinPitchDetector().eval()


def _tone(n, f0, seed, harmonics=(1.0,), noise=0.02):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / 8000.0
    sig = sum(a * torch.sin(2 * torch.pi * f0 * (k + 1) * t) for k, a in enumerate(harmonics))
    return (sig + noise * torch.randn(n, generator=g),)


def _noise(n, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(n, generator=g),)


def example_inputs():
    return _tone(400, 200.0, 0)


def dynamic_shapes():
    N = torch.export.Dim("samples", min=2, max=2048)
    return ({0: N},)


def verify_inputs():
    return [
        _tone(400, 200.0, 1),                                  # clean 200 Hz voice
        _tone(120, 250.0, 2, harmonics=(1.0, 0.5)),            # short frame limits the lag range
        _tone(512, 100.0, 3, harmonics=(1.0, 0.8, 0.6, 0.4)),  # rich low voice
        _tone(400, 200.0, 6, harmonics=(1.0,) * 10),           # buzzy pulse train: sharp dip
        _noise(300, 4),                                        # unvoiced
        _noise(2, 5),                                          # two samples: nothing to search
    ]
