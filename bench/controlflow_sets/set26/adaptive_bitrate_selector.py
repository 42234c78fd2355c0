"""Adaptive-bitrate (ABR) rung selection for a video player.

A small learned throughput predictor (harmonic mean of recent samples times a learned
safety factor) feeds a buffer-based rule set: panic to the lowest rung when the buffer
is nearly empty, otherwise walk down the bitrate ladder until the next chunk can be
fetched in time, and limit up-switches unless the buffer is comfortable.
"""
import torch
import torch.nn as nn


class ThroughputPredictor(nn.Module):
    def __init__(self, window=5):
        super().__init__()
        self.window = window
        self.net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, tput_kbps):
        h = tput_kbps.shape[0]
        recent = tput_kbps[-self.window:] if h > self.window else tput_kbps
        harmonic = recent.shape[0] / (1.0 / recent).sum()
        rel_std = recent.std() / recent.mean()
        trend = (recent[-1] - recent[0]) / recent.mean()
        feats = torch.stack([rel_std, trend, torch.log(harmonic / 1000.0)])
        safety = 0.6 + 0.35 * torch.sigmoid(self.net(feats))[0]
        return harmonic * safety


class BitrateSelector(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("ladder", torch.tensor([300.0, 750.0, 1200.0, 2400.0, 4300.0, 6000.0]))
        self.chunk_s = 4.0
        self.panic_s = 3.0
        self.comfort_s = 15.0
        self.predictor = ThroughputPredictor()

    def forward(self, tput_kbps, buffer_s, last_level):
        est = self.predictor(tput_kbps)
        buf = buffer_s[0]
        if buf < self.panic_s:
            return torch.zeros(1, dtype=torch.long), est.reshape(1)
        level = self.ladder.shape[0] - 1
        # largest rung whose chunk downloads before the buffer drains to the panic level
        while level > 0 and self.ladder[level] * self.chunk_s / est > buf - self.panic_s:
            level -= 1
        last = int(last_level[0])
        if level > last + 1 and buf < self.comfort_s:
            level = last + 1
        return torch.tensor([level]), est.reshape(1)


def model():
    torch.manual_seed(0)
    return BitrateSelector().eval()


def _inp(g, n, mean_kbps, buf, last):
    t = mean_kbps * (0.8 + 0.4 * torch.rand(n, generator=g))
    return t, torch.tensor([buf]), torch.tensor([last])


def example_inputs():
    g = torch.Generator().manual_seed(1)
    return _inp(g, 8, 3000.0, 12.0, 2)


def dynamic_shapes():
    return ({0: torch.export.Dim("history", min=2, max=64)}, None, None)


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    return [
        _inp(g, 6, 3000.0, 1.5, 3),     # buffer nearly empty -> panic
        _inp(g, 3, 20000.0, 20.0, 2),   # fast link, top rung right away, big buffer allows the jump
        _inp(g, 10, 9000.0, 5.8, 1),    # one step down, then up-switch limited
        _inp(g, 12, 2500.0, 10.0, 4),   # several steps down
        _inp(g, 7, 150.0, 6.0, 0),      # walks down to the lowest rung
    ]
