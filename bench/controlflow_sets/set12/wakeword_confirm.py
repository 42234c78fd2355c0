"""Streaming wake-word detector with a confirmation window.

Log-mel frames (T, 40) are fed one at a time through a GRU cell (as on the device).
A first-stage score arms the detector; within the next `window` frames the second-stage
(confirmation) score must pass its threshold, otherwise the detector disarms. Processing
stops at the first confirmed detection, so the returned score trace has a data-dependent
length.
"""
import torch
from torch import nn


class StreamingEncoder(nn.Module):
    def __init__(self, n_mels=40, hidden=32):
        super().__init__()
        self.proj = nn.Linear(n_mels, hidden)
        self.cell = nn.GRUCell(hidden, hidden)
        self.wake = nn.Linear(hidden, 1)
        self.confirm = nn.Linear(hidden, 1)

    def forward(self, frame, h):
        h = self.cell(torch.relu(self.proj(frame)).unsqueeze(0), h)
        return h, torch.sigmoid(self.wake(h))[0, 0], torch.sigmoid(self.confirm(h))[0, 0]


class WakeWordConfirm(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = StreamingEncoder()
        self.trigger = 0.455
        self.confirm_thr = 0.55
        self.window = 3

    def forward(self, feats: torch.Tensor):
        h = torch.zeros(1, 32)
        armed = False
        left = 0
        fired = torch.zeros((), dtype=torch.bool)
        fire_t = torch.full((), -1, dtype=torch.long)
        trace = []
        for t in range(feats.shape[0]):
            h, p_wake, p_conf = self.enc(feats[t], h)
            trace.append(p_wake)
            if not armed:
                if p_wake > self.trigger:
                    armed = True
                    left = self.window
                continue
            left -= 1
            if p_conf > self.confirm_thr:
                fired = torch.ones((), dtype=torch.bool)
                fire_t = torch.full((), t, dtype=torch.long)
                break
            if left == 0:
                armed = False
        return fired, fire_t, torch.stack(trace)


def model():
    torch.manual_seed(8)
    return WakeWordConfirm().eval()


def _audio(seed, T, level=1.0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(T, 40, generator=g) * level


def example_inputs():
    return (_audio(0, 30),)


def dynamic_shapes():
    return ({0: torch.export.Dim("T", min=2, max=400)},)


def verify_inputs():
    return [(_audio(1, 2),), (_audio(2, 50, 2.0),), (_audio(3, 100, 0.5),), (_audio(4, 20, 3.0),)]
