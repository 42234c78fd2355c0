"""YIN pitch tracker for a guitar tuner / singing app, with a learned pre-emphasis filter.

For one audio frame of dynamic length: silence gate (early return), difference
function computed lag by lag (python loop over a size derived from the dynamic frame
length), cumulative-mean normalisation, then the classic YIN search: the first lag
below the threshold, walked down to its local minimum with a tensor `while`, then
`break`. If no lag passes, the frame is unvoiced and the pre-loop value (-1) survives.
Outputs: f0 in Hz (1,) and confidence (1,).
"""

import torch
import torch.nn as nn
from torch.export import Dim


class YinPitch(nn.Module):
    def __init__(self, sample_rate=8000, threshold=0.15, min_lag=16, silence=1e-4):
        super().__init__()
        self.sr = sample_rate
        self.threshold = threshold
        self.min_lag = min_lag
        self.silence = silence
        self.prefilter = nn.Conv1d(1, 1, 5, padding=2, bias=False)
        with torch.no_grad():
            self.prefilter.weight.copy_(torch.tensor([[[-0.05, 0.1, 0.9, 0.1, -0.05]]]))

    def forward(self, frame):
        x = self.prefilter(frame.view(1, 1, -1)).view(-1)
        if x.pow(2).mean() < self.silence:
            return torch.zeros(1), torch.zeros(1)
        n = x.shape[0]
        max_lag = n // 2
        diffs = [torch.zeros(())]
        for tau in range(1, max_lag):
            d = x[: n - max_lag] - x[tau : tau + n - max_lag]
            diffs.append((d * d).sum())
        diff = torch.stack(diffs)
        taus = torch.arange(1, max_lag, dtype=x.dtype)
        cmnd = torch.cat([torch.ones(1), diff[1:] * taus / torch.cumsum(diff[1:], 0).clamp_min(1e-8)])
        best = -1
        for tau in range(self.min_lag, max_lag - 1):
            if cmnd[tau] < self.threshold:
                while tau + 1 < max_lag - 1 and cmnd[tau + 1] < cmnd[tau]:
                    tau += 1
                best = tau
                break
        if best < 0:
            return torch.zeros(1), (1.0 - cmnd[self.min_lag :].min()).clamp(0, 1).view(1)
        # parabolic interpolation around the minimum
        a, b, c = cmnd[best - 1], cmnd[best], cmnd[best + 1]
        denom = (a - 2 * b + c).clamp_min(1e-6)  # >= 0 at a local minimum
        shift = 0.5 * (a - c) / denom
        f0 = self.sr / (best + shift)
        return f0.view(1), (1.0 - b).clamp(0, 1).view(1)


def model():
    torch.manual_seed(0)
    return YinPitch().eval()


def _tone(n, f0, amp=0.5, noise=0.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / 8000.0
    x = amp * (torch.sin(2 * torch.pi * f0 * t) + 0.4 * torch.sin(2 * torch.pi * 2 * f0 * t + 0.3))
    return (x + noise * torch.randn(n, generator=g)).view(1, n)


def example_inputs():
    return (_tone(512, 196.0),)


def dynamic_shapes():
    return {"frame": {1: Dim("n", min=128, max=2048)}}


def verify_inputs():
    g = torch.Generator().manual_seed(7)
    return [
        (torch.zeros(1, 400),),  # silence -> early return
        (torch.randn(1, 256, generator=g) * 0.5,),  # noise -> unvoiced (no lag passes)
        (_tone(1024, 110.0, noise=0.02, seed=3),),  # low string, voiced
        (_tone(300, 330.0, amp=0.3),),  # short frame, high string
    ]
