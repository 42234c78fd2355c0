"""Drum onset detector for a practice-pad app.

A conv front end computes a novelty curve from the audio envelope; long clips
are decimated; each full 16-sample block reports its onset strength (zero when
below threshold) and a ragged tail block is handled separately.
Output: strengths [ceil(T'/16)] and the number of full blocks with an onset.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class OnsetDetector(nn.Module):
    def __init__(self, block=16, thr=0.3):
        super().__init__()
        self.block, self.thr = block, thr
        self.front = nn.Conv1d(1, 4, 5, padding=2)
        self.mix = nn.Conv1d(4, 1, 1)

    def forward(self, env):  # env: [1, T]
        x = env.unsqueeze(1)
        if x.shape[2] > 256:
            x = F.avg_pool1d(x, 2)
        h = torch.tanh(self.front(x))
        nov = torch.relu(self.mix(h)[0, 0] + 2.0 * (x[0, 0] - F.pad(x[0, 0], (1, 0))[:-1]))
        T = nov.shape[0]
        strengths, n_on = [], torch.zeros((), dtype=torch.long)
        for i in range(T // self.block):
            s = nov[i * self.block:(i + 1) * self.block].max()
            strengths.append(s if s > self.thr else torch.zeros(()))
            n_on = n_on + (s > self.thr).long()
        if T % self.block != 0:
            strengths.append(nov[(T // self.block) * self.block:].max())
        return torch.stack(strengths), n_on


def _env(T, hits, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    x = 0.05 + 0.01 * torch.rand(T, generator=g)
    for h in hits:
        x = x + torch.where(t >= h, torch.exp(-(t - h) / 4.0), torch.zeros(()))
    return x.unsqueeze(0)


def model():
    torch.manual_seed(0)
    return OnsetDetector().eval()


def example_inputs():
    return (_env(64, [5, 40], 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=2, max=1024)},)


def verify_inputs():
    return [
        (_env(10, [3], 1),),                  # shorter than a block: tail only
        (_env(300, [20, 100, 210, 260], 2),), # decimated
        (_env(48, [], 3),),                   # silence, exact blocks
    ]
