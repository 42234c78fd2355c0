"""Cochlear-implant n-of-m stimulation strategy: per frame pick the n strongest of m electrode channels.

Kind X. Constructs: 1, 5, 6, 7, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def select_channels(env, n, floor):
    """Iteratively pick up to n maxima; stop early when the rest is below the noise floor."""
    chosen = torch.zeros_like(env)
    work = env.clone()
    for _ in range(n):
        v, i = work.max(dim=0)
        if v < floor:
            break
        chosen[i] = 1.0
        work[i] = -1.0
    return chosen


def compress(env, c=500.0):
    # loudness growth function (logarithmic map to current units)
    return torch.log1p(c * env) / torch.log1p(torch.tensor(c))


class NofM(nn.Module):
    def __init__(self, m=22, n=8, floor=0.05, silence=0.02):
        super().__init__()
        self.n = n
        self.floor = floor
        self.silence = silence
        self.fitting = nn.Linear(m, m)  # patient map (T/C levels) tweak

    def forward(self, env):
        # env: (T, 22) channel envelopes in 0..1
        pulses = []
        for t in range(env.shape[0]):
            frame = env[t]
            if frame.mean() < self.silence:
                pulses.append(torch.zeros_like(frame))
                continue
            sel = select_channels(frame, self.n, self.floor)
            pulses.append(sel * compress(frame))
        p = torch.stack(pulses)
        if env.shape[0] >= 16:
            # long buffers: smooth the stimulation with a short moving average
            p = torch.nn.functional.avg_pool1d(p.t().unsqueeze(0), 3, stride=1, padding=1)[0].t()
        levels = torch.sigmoid(self.fitting(p))
        return p, levels


def model():
    torch.manual_seed(206)
    return NofM().eval()


def _env(T, seed, quiet_frames=(), sparse_frames=()):
    g = torch.Generator().manual_seed(seed)
    rows = []
    for t in range(T):
        perm = torch.randperm(22, generator=g).float()
        if t in quiet_frames:
            rows.append(perm * 0.0005)          # all channels below silence level
        elif t in sparse_frames:
            row = perm * 0.001
            row[perm >= 19] = 0.3 + 0.1 * (perm[perm >= 19] - 19)  # only 3 strong channels
            rows.append(row)
        else:
            rows.append(0.1 + perm * 0.03)      # distinct levels, 0.03 apart
    return torch.stack(rows)


def example_inputs():
    return (_env(10, 1, quiet_frames=(3,), sparse_frames=(5,)),)


def dynamic_shapes():
    return ({0: Dim("frames", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),                                   # short: silent frame (continue), sparse frame (break), full frames
        (_env(64, 2, quiet_frames=(0, 63), sparse_frames=tuple(range(10, 20))),),  # long -> smoothing
        (_env(2, 3),),                                      # minimal, all frames full n-of-m
    ]
