"""Smart meter tamper detection at the head-end: a window of readings (voltage, current,
reported power, terminal-cover switch) runs through rules (cover opened, voltage out of
band, reported power not matching V*I, zero current under supply voltage) plus a learned
anomaly score used as confidence."""

import torch
from torch import nn


def voltage_ok(v: torch.Tensor) -> bool:
    if v.min() < 180.0:
        return False
    return bool(v.max() < 260.0)


class MeterScore(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 16, 5, padding=2)
        self.fc = nn.Linear(16, 1)

    def forward(self, r):
        x = r / torch.tensor([230.0, 10.0, 2.0, 1.0])
        h = torch.relu(self.conv(x.transpose(1, 2)))
        return torch.sigmoid(self.fc(h.mean(-1))).reshape(1)


class TamperDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = MeterScore()

    def forward(self, r: torch.Tensor):
        # r: (1, T, 4) = volts, amps, reported kW, cover switch (1 = open)
        v, i, p, cover = r[0, :, 0], r[0, :, 1], r[0, :, 2], r[0, :, 3]
        conf = self.score(r)
        if cover.max() > 0.5:
            return torch.tensor([1]), torch.ones(1)  # terminal cover opened
        code = torch.tensor([0])
        if not voltage_ok(v):
            code = torch.tensor([2])
        expected = v * i / 1000.0
        mismatch = (expected - p).abs().mean() / expected.mean().clamp_min(0.05)
        if mismatch > 0.2 and i.mean() > 0.5:
            code = torch.tensor([3])  # under-reporting (shunted CT)
            conf = torch.maximum(conf, mismatch.clamp_max(1.0).reshape(1))
        elif (i < 0.01).float().mean() > 0.5 and v.mean() > 200.0:
            code = torch.tensor([4])  # supply present but no consumption: bypass suspected
        return code, conf


def model() -> nn.Module:
    torch.manual_seed(0)
    return TamperDetector().eval()


def _meter(T, seed, volts=230.0, amps=5.0, report=1.0, cover_at=None, zero_frac=0.0, sag=None):
    g = torch.Generator().manual_seed(seed)
    v = volts + 3.0 * torch.randn(T, generator=g)
    if sag is not None:
        v[T // 2] = sag
    i = amps * (0.8 + 0.4 * torch.rand(T, generator=g))
    nz = int(T * zero_frac)
    i[:nz] = 0.0
    p = v * i / 1000.0 * report
    cov = torch.zeros(T)
    if cover_at is not None:
        cov[cover_at] = 1.0
    return (torch.stack([v, i, p, cov], dim=1).unsqueeze(0),)


def example_inputs() -> tuple:
    return _meter(24, 0)


def dynamic_shapes():
    return ({1: torch.export.Dim("t", min=8, max=96)},)


def verify_inputs() -> list:
    return [
        _meter(8, 1, cover_at=3),                    # cover opened
        _meter(48, 2, report=0.5),                   # under-reporting
        _meter(96, 3, zero_frac=0.75),               # bypass: no current
        _meter(30, 4, sag=150.0, amps=0.3, report=0.5),  # sag, small load mismatch ignored
        _meter(40, 5, volts=275.0, zero_frac=0.3),   # over-voltage, some idle time
        _meter(10, 6, volts=190.0, amps=0.0),        # no load, low-ish supply
    ]
