"""Keystroke-dynamics features for a typing session.

Inter-key gaps longer than the pause threshold split the session into bursts;
bursts with too few keys are ignored; each remaining burst is summarized
(speed, rhythm regularity, mean hold time) and embedded. The number of bursts
depends on the data.
"""
import torch
import torch.nn as nn


class TypingBurstAnalyzer(nn.Module):
    def __init__(self, pause_s=0.6, min_keys=3, dim=8):
        super().__init__()
        self.pause_s = pause_s
        self.min_keys = min_keys
        self.dim = dim
        self.embed = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, dim))

    def summarize(self, gaps, holds):
        speed = 1.0 / (gaps.mean() + 0.05)
        regularity = gaps.std() / (gaps.mean() + 0.05)
        return self.embed(torch.stack([speed / 10.0, regularity, holds.mean() * 10.0]))

    def forward(self, press_times, hold_times):
        # press_times: [N] seconds (increasing), hold_times: [N] seconds
        gaps = press_times[1:] - press_times[:-1]
        bursts = []
        start = 0
        for i in range(gaps.shape[0]):
            if gaps[i] <= self.pause_s:
                continue
            if i + 1 - start >= self.min_keys:
                bursts.append(self.summarize(gaps[start:i], hold_times[start:i + 1]))
            start = i + 1
        if press_times.shape[0] - start >= self.min_keys:
            bursts.append(self.summarize(gaps[start:], hold_times[start:]))
        if len(bursts) == 0:
            return torch.zeros(0, self.dim), torch.zeros(self.dim)
        feats = torch.stack(bursts)
        return feats, feats.mean(0)


def model():
    torch.manual_seed(0)
    return TypingBurstAnalyzer().eval()


def _session(burst_sizes, seed):
    g = torch.Generator().manual_seed(seed)
    gaps = []
    for k, size in enumerate(burst_sizes):
        if k > 0:
            gaps.append(1.0 + 2.0 * torch.rand(1, generator=g))        # thinking pause
        gaps.append(0.08 + 0.3 * torch.rand(size - 1, generator=g))    # fluent typing
    gaps = torch.cat(gaps)
    press = torch.cat([torch.zeros(1), torch.cumsum(gaps, 0)]) + 5.0
    holds = 0.05 + 0.1 * torch.rand(press.shape[0], generator=g)
    return press, holds


def example_inputs():
    return _session([5, 8, 4], 0)


def dynamic_shapes():
    N = torch.export.Dim("keys", min=2, max=2000)
    return ({0: N}, {0: N})


def verify_inputs():
    return [
        _session([6, 2, 9, 4], 1),   # a too-short burst in the middle
        _session([12], 2),           # one fluent burst
        _session([2, 1, 2], 3),      # hesitant: no burst long enough
        _session([4, 7, 2], 4),      # short burst at the end is dropped
        _session([2], 5),            # just two keystrokes
    ]
