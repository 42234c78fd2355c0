"""Musical onset detector (spectral flux + adaptive-threshold peak picking) for a tuner/looper app.

Returns the onset frame indices and their strengths; both have a data-dependent length.
"""

import torch
import torch.nn.functional as F
from torch import nn


class OnsetDetector(nn.Module):
    def __init__(self, n_mels: int = 40, min_gap: int = 3, delta: float = 0.05):
        super().__init__()
        self.band_weight = nn.Linear(n_mels, n_mels)
        self.min_gap = min_gap
        self.delta = delta

    def forward(self, spec: torch.Tensor):
        # spec: (T, n_mels) log-mel magnitudes
        s = spec + 0.1 * torch.tanh(self.band_weight(spec))
        flux = torch.relu(s[1:] - s[:-1]).mean(-1)  # (T-1,)
        local = F.avg_pool1d(flux.view(1, 1, -1), 5, stride=1, padding=2, count_include_pad=False).view(-1)
        thr = local + self.delta
        onsets, strengths = [], []
        last = -self.min_gap
        for t in range(1, flux.shape[0] - 1):
            if flux[t] <= thr[t]:
                continue
            if flux[t] < flux[t - 1] or flux[t] < flux[t + 1]:
                continue
            if t - last < self.min_gap:
                # two peaks too close: keep the stronger one
                if flux[t] > strengths[-1]:
                    onsets[-1] = t
                    strengths[-1] = flux[t]
                continue
            onsets.append(t)
            strengths.append(flux[t])
            last = t
        if len(onsets) == 0:
            return torch.zeros(0, dtype=torch.long), torch.zeros(0)
        return torch.tensor(onsets, dtype=torch.long) + 1, torch.stack(strengths)


def model() -> nn.Module:
    torch.manual_seed(0)
    return OnsetDetector().eval()


def _notes(T, hits, seed, amps=None, slow=()):
    g = torch.Generator().manual_seed(seed)
    spec = 0.05 * torch.rand(T, 40, generator=g)
    for k, h in enumerate(hits):
        a = 1.0 if amps is None else amps[k]
        decay = torch.exp(-0.4 * torch.arange(T - h).float()).unsqueeze(1)
        env = a * decay * (0.5 + torch.rand(1, 40, generator=g))
        if h in slow:  # bowed/swelled note: two-frame attack
            env[0] = 0.4 * env[0]
        spec[h:] = spec[h:] + env
    return spec


def example_inputs() -> tuple:
    return (_notes(32, [4, 15, 24], 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=4, max=400)},)


def verify_inputs() -> list:
    return [
        (_notes(64, [5, 7, 20, 22, 40], 1, amps=[0.6, 1.2, 1.0, 0.8, 0.8], slow=(40,)),),  # close pairs
        (_notes(6, [], 2),),          # silence: no onsets
        (_notes(4, [2], 3),),         # shortest
    ]
