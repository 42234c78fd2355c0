"""Handheld tremor-cancelling spoon (Parkinson's / essential tremor assistive device).

A 3-axis accelerometer in the handle is sampled at 100 Hz. The tremor component
(4-8 Hz) is separated from voluntary motion with a moving-average high-pass; if the
tremor power is high the two-axis gimbal runs with full cancellation gain,
otherwise with a light gain so deliberate movement is not fought. A small GRU
predicts the next-sample tremor to compensate for motor latency.

Kind: T. Constructs: 1, 2, 5, 8, 9.
"""
import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim


class TremorSpoonStabilizer(nn.Module):
    def __init__(self, hidden=16, min_window=8, tremor_threshold=0.05, use_feedforward=True):
        super().__init__()
        self.min_window = min_window
        self.tremor_threshold = tremor_threshold
        self.use_feedforward = use_feedforward
        self.predictor = nn.GRUCell(3, hidden)
        self.head = nn.Linear(hidden, 3)
        self.dropout = nn.Dropout(0.1)
        self.max_deflection = 1.0

    def forward(self, accel):
        n = accel.shape[0]
        if n < self.min_window:
            # not enough history for the high-pass yet: keep the gimbal centred
            return torch.zeros_like(accel), accel.new_zeros(1)

        # voluntary motion = 9-tap moving average, tremor = residual
        slow = F.avg_pool1d(accel.t().unsqueeze(0), kernel_size=9, stride=1, padding=4,
                            count_include_pad=False).squeeze(0).t()
        tremor = accel - slow
        tremor_power = tremor.pow(2).mean()
        gain = 1.0 if tremor_power > self.tremor_threshold else 0.3

        h = accel.new_zeros(1, self.predictor.hidden_size)
        commands = []
        for t in range(n):
            h = self.predictor(tremor[t].unsqueeze(0), h)
            cmd = -gain * tremor[t]
            if self.use_feedforward:  # static config flag
                feat = self.dropout(h) if self.training else h
                cmd = cmd - 0.1 * torch.tanh(self.head(feat))[0]
            commands.append(cmd.clamp(-self.max_deflection, self.max_deflection))
        return torch.stack(commands), tremor_power.reshape(1)


def model():
    torch.manual_seed(4201)
    return TremorSpoonStabilizer().eval()


def _imu(n, tremor_amp, tremor_hz, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / 100.0
    voluntary = torch.stack([0.3 * torch.sin(2 * math.pi * 0.5 * t),
                             0.2 * torch.cos(2 * math.pi * 0.3 * t),
                             0.1 * t], dim=1)
    tremor = tremor_amp * torch.stack([torch.sin(2 * math.pi * tremor_hz * t),
                                       0.5 * torch.sin(2 * math.pi * tremor_hz * t + 1.0),
                                       0.2 * torch.sin(2 * math.pi * tremor_hz * t + 2.0)], dim=1)
    noise = 0.01 * torch.randn(n, 3, generator=g)
    return voluntary + tremor + noise


def example_inputs():
    return (_imu(64, 2.0, 5.0, 0),)


def dynamic_shapes():
    return ({0: Dim("steps", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),            # strong 5 Hz tremor -> full gain, loop many steps
        (_imu(40, 0.05, 5.0, 1),),   # mild tremor, voluntary motion only -> light gain
        (_imu(5, 1.5, 5.0, 2),),     # shorter than min_window -> early return
        (_imu(8, 2.0, 6.0, 3),),     # exactly min_window samples, strong tremor
    ]
