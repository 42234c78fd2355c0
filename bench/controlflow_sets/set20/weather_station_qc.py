"""Automatic weather-station quality control.

A chain of QC checks (ModuleList, static loop) runs over the reading series:
a range check clamps impossible values and returns early, a spike check
smooths sudden jumps, a stuck-sensor check flags flat channels. Each check
reports a flag; a small bias corrector adjusts the cleaned series.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RangeCheck(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("lo", torch.tensor([-40.0, 0.0, 900.0, 0.0]))
        self.register_buffer("hi", torch.tensor([50.0, 100.0, 1080.0, 60.0]))

    def forward(self, x):
        if (x > self.hi).any() or (x < self.lo).any():
            return torch.maximum(torch.minimum(x, self.hi), self.lo), torch.ones(())
        return x, torch.zeros(())


class SpikeCheck(nn.Module):
    def forward(self, x):
        jump, flag = (x[:, 1:] - x[:, :-1]).abs(), torch.zeros(())
        if not (jump < 8.0).all():
            x = F.avg_pool1d(x.transpose(1, 2), 3, stride=1, padding=1, count_include_pad=False).transpose(1, 2)
            flag = flag + 1.0
        return x, flag


class StuckCheck(nn.Module):
    def forward(self, x):
        if x.shape[1] > 6 and (x[:, -6:].std(1) < 0.01).any():
            return x, torch.ones(())
        return x, torch.zeros(())


class StationQC(nn.Module):
    def __init__(self):
        super().__init__()
        self.checks = nn.ModuleList([RangeCheck(), SpikeCheck(), StuckCheck()])
        self.bias = nn.Linear(4, 4)

    def forward(self, readings):  # readings: [1, T, 4] temp C, RH %, pressure hPa, wind m/s
        x, flags = readings, []  # flags: range, spike, stuck
        for check in self.checks:  # static
            x, f = check(x)
            flags.append(f)
        x = x + 0.01 * torch.tanh(self.bias(x.mean(1, keepdim=True) / 100.0))
        return x, torch.stack(flags)


def _series(T, seed, spike_at=None, stuck=False, bad=False):
    g, t = torch.Generator().manual_seed(seed), torch.arange(T, dtype=torch.float32)
    x = torch.stack([15 + 3 * torch.sin(t / 5), 60 + 5 * torch.cos(t / 7), 1010 + 0.5 * torch.sin(t / 9),
                     5 + torch.sin(t / 3)], 1) + 0.1 * torch.randn(T, 4, generator=g)
    x[spike_at if spike_at is not None else slice(0, 0), 0] += 20.0
    x[-6 if stuck else T:, 3] = 4.0
    x[1, 1] = 130.0 if bad else x[1, 1]
    return x.unsqueeze(0)


def model():
    torch.manual_seed(0)
    return StationQC().eval()


def example_inputs():
    return (_series(24, 0, spike_at=10),)


def dynamic_shapes():
    return ({1: torch.export.Dim("readings", min=2, max=288)},)


def verify_inputs():
    return [(_series(12, 1, stuck=True),), (_series(5, 2, bad=True),), (_series(40, 3),)]
