"""Pedometer step counter for a wrist band (accelerometer magnitude peak picking).

Input: accelerometer (T, 3) in m/s^2, T dynamic. A peak counts as a step when it is a local
maximum, above a threshold, and far enough from the previous step.
"""

import torch
from torch import nn


class StepCounter(nn.Module):
    def __init__(self, rate_hz: float = 25.0, min_gap: int = 6, threshold: float = 11.0):
        super().__init__()
        self.rate_hz = rate_hz
        self.min_gap = min_gap
        self.threshold = threshold
        self.lowpass = nn.Conv1d(1, 1, 5, padding=2, bias=False)
        with torch.no_grad():
            self.lowpass.weight.copy_(torch.tensor([[[0.1, 0.2, 0.4, 0.2, 0.1]]]))

    def forward(self, acc: torch.Tensor):
        mag = acc.pow(2).sum(-1).sqrt()
        m = self.lowpass(mag.view(1, 1, -1)).view(-1)
        steps = torch.zeros((), dtype=torch.int64)
        last = torch.tensor(-100)
        peaks = torch.zeros_like(m)
        for t in range(1, m.shape[0] - 1):
            if not (m[t] > m[t - 1] and m[t] > m[t + 1]):
                continue
            if m[t] < self.threshold:
                continue
            if t - last < self.min_gap:
                continue
            steps = steps + 1
            last = torch.tensor(t)
            peaks = peaks + torch.nn.functional.one_hot(torch.tensor(t), m.shape[0]).float()
        duration_s = m.shape[0] / self.rate_hz
        cadence = steps.float() * 60.0 / duration_s
        return steps, cadence, peaks


def model() -> nn.Module:
    torch.manual_seed(0)
    return StepCounter().eval()


def _walk(t, freq_hz, amp, seed):
    g = torch.Generator().manual_seed(seed)
    time = torch.arange(t, dtype=torch.float32) / 25.0
    z = 9.81 + amp * torch.sin(2 * 3.14159 * freq_hz * time) + 0.3 * torch.randn(t, generator=g)
    xy = 0.5 * torch.randn(t, 2, generator=g)
    return torch.cat([xy, z.unsqueeze(1)], dim=1)


def example_inputs() -> tuple:
    return (_walk(100, 1.8, 3.0, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("t", min=8, max=1000)},)


def verify_inputs() -> list:
    return [
        (_walk(60, 1.5, 0.2, 6),),   # standing: no step above threshold
        (_walk(200, 3.0, 4.0, 6),),  # running
        (_walk(50, 4.5, 3.5, 4),),   # jitter: close peaks rejected by min gap
    ]
