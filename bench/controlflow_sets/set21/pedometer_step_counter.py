"""Wrist pedometer: peak picking on accelerometer magnitude, shake abort, learned stride length per step."""
import torch
from torch import nn
from torch.export import Dim


class StepCounter(nn.Module):
    def __init__(self, thr=1.0, shake=12.0):
        super().__init__()
        self.thr = thr
        self.shake = shake
        self.stride_net = nn.ModuleList([nn.Linear(2, 8), nn.Linear(8, 1)])

    def stride(self, peak, gap):
        h = torch.stack([peak, gap]).view(1, 2)
        for i, layer in enumerate(self.stride_net):  # static
            h = layer(h)
            h = torch.relu(h) if i == 0 else h  # static
        return 0.6 + 0.2 * torch.sigmoid(h).view(1)

    def forward(self, accel):
        T = accel.shape[0]
        m = accel.norm(dim=1) - 9.81
        strides = [torch.zeros(1)]
        last = 0
        for t in range(1, T - 1):
            if m[t] > self.shake:
                break
            if m[t] < self.thr:
                continue
            if m[t] > m[t - 1] and m[t] >= m[t + 1]:
                strides.append(self.stride(m[t], torch.tensor(float(t - last)) / 25.0))
                last = t
        s = torch.cat(strides)
        steps = torch.full((1,), float(len(strides) - 1))
        return steps, s.sum().view(1)


def model():
    torch.manual_seed(0)
    return StepCounter().eval()


_PATTERN = [0.0, 0.5, 1.5, 2.5, 1.5, 0.5, -0.5, -1.0, -0.5, 0.0]


def _walk(T, amp, shake_at=-1):
    p = torch.tensor(_PATTERN)
    m = p.repeat(T // len(_PATTERN) + 1)[:T] * amp
    if shake_at >= 0:
        m[shake_at] = 20.0
    z = 9.81 + m
    return torch.stack([torch.zeros(T), torch.zeros(T), z], 1)


def example_inputs():
    return (_walk(40, 1.0),)


def verify_inputs():
    return [
        (_walk(12, 0.3),),             # standing still: everything below threshold
        (_walk(64, 1.3, shake_at=35),),  # phone shaken -> abort
        (_walk(25, 1.0),),
    ]


def dynamic_shapes():
    return ({0: Dim("samples", min=8, max=512)},)
