"""Capnography (exhaled CO2) breath detector / alarm for a patient monitor.

Constructs: 1 (if on reductions), 2 (early return on apnea), 3 (`or` / `and`
of tensor predicates), 5 (for over range(L // 16) with L dynamic, append + stack).
"""
import math

import torch
import torch.nn as nn


class CapnoMonitor(nn.Module):
    def __init__(self, win=16):
        super().__init__()
        self.win = win
        self.scorer = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, co2):
        # co2: [L] waveform in mmHg
        feats = []
        for i in range(co2.shape[0] // self.win):
            seg = co2[i * self.win:(i + 1) * self.win]
            feats.append(torch.stack([seg.max(), seg.min(), seg.mean()]))
        feats = torch.stack(feats)
        scores = torch.sigmoid(self.scorer(feats / 40.0)).squeeze(-1)
        exhaling = (feats[:, 0] > 20.0).float()
        if exhaling.sum() == 0:
            # no breath in the whole window: apnea alarm
            return torch.ones(1), torch.zeros(1), scores
        etco2 = feats[:, 0].max()
        rr = exhaling.mean()
        if (etco2 > 45.0) or (etco2 < 30.0 and rr > 0.3):
            alarm = torch.ones(1)
        else:
            alarm = torch.zeros(1)
        return alarm, rr.reshape(1), scores


def model():
    torch.manual_seed(1)
    return CapnoMonitor().eval()


def _wave(L, amp, period=12, only_first=False):
    t = torch.arange(L, dtype=torch.float32)
    w = amp * torch.relu(torch.sin(2 * math.pi * t / period))
    if only_first:
        w[16:] = 0.0
    return w


def example_inputs():
    return (_wave(96, 38.0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=32, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                           # normal EtCO2 38, frequent breaths -> no alarm
        (torch.zeros(64),),                         # flat line -> apnea early return
        (_wave(128, 50.0),),                        # EtCO2 50 -> alarm via first operand of `or`
        (_wave(200, 25.0),),                        # low EtCO2, high rate -> alarm via `and`
        (_wave(160, 25.0, only_first=True),),       # low EtCO2 but rr low -> `and` false, no alarm
        (_wave(32, 38.0),),                         # min size: 2 windows, no alarm
        (_wave(512, 52.0),),                        # max size, alarm
    ]
