"""Seismic STA/LTA event trigger for a single-station seismometer.

Short-term / long-term average energy ratio of a velocity trace; long traces
are decimated, short ones zero-padded; the window is classified as event
(early return with onset sample), tremor or quiet.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StaLtaTrigger(nn.Module):
    def __init__(self, sta=4, lta=16, on=3.0, tremor=1.2):
        super().__init__()
        self.sta, self.lta, self.on, self.tremor = sta, lta, on, tremor
        self.head = nn.Linear(4, 3)

    def forward(self, trace):  # trace: [1, T]
        if trace.shape[1] > 128:
            trace = F.avg_pool1d(trace.unsqueeze(1), 2).squeeze(1)
        if trace.shape[1] < self.lta:
            trace = F.pad(trace, (self.lta - trace.shape[1], 0))
        energy = (trace * trace).unsqueeze(1)
        sta = F.avg_pool1d(energy, self.sta, stride=1).squeeze(1)
        lta = F.avg_pool1d(energy, self.lta, stride=1).squeeze(1) + 0.05
        ratio = sta[:, self.lta - self.sta:] / lta
        feats = torch.stack([ratio.mean(1), ratio.amax(1), energy.mean((1, 2)), trace.abs().amax(1)], 1)
        onset = torch.full((trace.shape[0],), -1, dtype=torch.long)
        severity = torch.zeros(trace.shape[0])
        peak = ratio.max()
        if peak > self.on:
            onset = ratio.argmax(dim=1)
            return self.head(feats) + 1.0, onset
        elif peak > self.tremor:
            severity = ratio.mean(1) - 1.0
        return self.head(feats) * 0.5 + severity.unsqueeze(1), onset


def _trace(T, burst_at, burst_amp, wobble, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    x = 0.3 * torch.sin(0.9 * t) * (1.0 + wobble * torch.sin(0.3 * t)) + 0.01 * torch.randn(T, generator=g)
    if burst_at is not None:
        x[burst_at:burst_at + 6] += burst_amp * torch.tensor([1.0, 1.4, -1.2, -1.5, 0.9, 0.6])[: T - burst_at]
    return x.unsqueeze(0)


def model():
    torch.manual_seed(0)
    return StaLtaTrigger().eval()


def example_inputs():
    return (_trace(64, 40, 2.0, 0.1, 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=2, max=256)},)


def verify_inputs():
    return [
        (_trace(10, None, 0.0, 0.0, 1),),    # short: padded, quiet
        (_trace(200, 150, 3.0, 0.1, 2),),    # long: decimated, event
        (_trace(96, None, 0.0, 0.9, 3),),    # tremor
        (_trace(48, None, 0.0, 0.05, 4),),   # quiet
    ]
