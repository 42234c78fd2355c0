"""Tire-pressure monitoring (TPMS) anomaly detector for a 4-wheel vehicle ECU.

Per-tire EWMA baseline and variance over the reading stream (temperature-compensated by a
small learned layer); sensor dropouts are skipped, anomalous readings do not update their
tire's baseline, and a slow-leak flag compares the final baseline with the start.
"""

import torch
from torch import nn


class TireAnomaly(nn.Module):
    def __init__(self, alpha: float = 0.2, z_thr: float = 4.0, leak_bar: float = 0.2):
        super().__init__()
        self.temp_comp = nn.Linear(1, 4)
        self.alpha = alpha
        self.z_thr = z_thr
        self.leak_bar = leak_bar

    def forward(self, pressure: torch.Tensor, temp: torch.Tensor):
        # pressure: (T, 4) bar, -1 = no reading; temp: (T, 1) deg C
        comp = 0.01 * torch.tanh(self.temp_comp(temp / 40.0))
        p = pressure - comp
        mean = p[0]
        var = torch.full((4,), 0.01)
        flags = []
        for t in range(1, p.shape[0]):
            if pressure[t].min() < 0:  # a sensor dropped out: skip the whole frame
                flags.append(torch.zeros(4, dtype=torch.bool))
                continue
            r = p[t]
            z = (r - mean) / var.sqrt()
            anomaly = z.abs() > self.z_thr
            new_mean = (1 - self.alpha) * mean + self.alpha * r
            new_var = ((1 - self.alpha) * var + self.alpha * (r - mean) ** 2).clamp_min(1e-4)
            if anomaly.any():
                mean = torch.where(anomaly, mean, new_mean)
                var = torch.where(anomaly, var, new_var)
            else:
                mean, var = new_mean, new_var
            flags.append(anomaly)
        leak = torch.zeros(4, dtype=torch.bool)
        if (mean - p[0]).min() < -self.leak_bar:
            leak = (mean - p[0]) < -self.leak_bar
        return torch.stack(flags), mean, leak


def model() -> nn.Module:
    torch.manual_seed(0)
    return TireAnomaly().eval()


def _stream(T, seed, spike_at=None, dropout_at=(), leak=0.0):
    g = torch.Generator().manual_seed(seed)
    p = 2.3 + 0.01 * torch.randn(T, 4, generator=g)
    p[:, 1] = p[:, 1] - leak * torch.arange(T).float()
    if spike_at is not None:
        p[spike_at, 2] = 1.2  # puncture / sensor glitch
    for d in dropout_at:
        p[d, 3] = -1.0
    temp = 20.0 + torch.randn(T, 1, generator=g)
    return p, temp


def example_inputs() -> tuple:
    return _stream(20, 0, spike_at=10, dropout_at=(5,))


def dynamic_shapes():
    d = torch.export.Dim("readings", min=2, max=256)
    return ({0: d}, {0: d})


def verify_inputs() -> list:
    return [
        _stream(60, 1, leak=0.01),    # slow leak on tire 1
        _stream(2, 2),                # a single update
        _stream(9, 3, dropout_at=(1, 2, 8)),
    ]
