"""Water leak detection on a smart water meter: flow + pressure windows of variable
length are padded to a multiple of the conv stride, a missing pressure channel is
imputed, and a continuous-flow + pressure-drop rule short-circuits the network."""

import torch
from torch import nn

STRIDE = 8


class LeakDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(2, 16, kernel_size=STRIDE, stride=STRIDE)
        self.conv2 = nn.Conv1d(16, 16, kernel_size=3, padding=1)
        self.head = nn.Linear(16, 1)

    def forward(self, flow: torch.Tensor, pressure: torch.Tensor):
        # flow: (B, T) litres/min; pressure: (B, T) bar (0 = sensor dropout)
        B, T = flow.shape[0], flow.shape[1]
        if not bool((pressure > 0.5).all()):
            # sensor dropout: replace missing samples by the mean of the valid ones
            valid = (pressure > 0.5).float()
            fill = (pressure * valid).sum() / valid.sum().clamp_min(1.0)
            pressure = pressure * valid + fill * (1.0 - valid)
        if T % STRIDE != 0:
            pad = STRIDE - T % STRIDE
            flow = torch.cat([flow, flow[:, -1:].expand(B, pad)], dim=1)
            pressure = torch.cat([pressure, pressure[:, -1:].expand(B, pad)], dim=1)
        min_flow = flow.min()
        mean_p = pressure.mean()
        if min_flow > 0.5 and mean_p < 2.0:
            # flow never stops and mains pressure dropped: burst pipe
            prob = torch.full((B,), 0.99)
            return prob, torch.zeros(B, 16)
        x = torch.stack([flow / 10.0, pressure / 4.0], dim=1)
        h = torch.relu(self.conv1(x))
        h = torch.relu(self.conv2(h))
        emb = h.mean(dim=-1)
        prob = torch.sigmoid(self.head(emb)).squeeze(-1)
        if min_flow > 0.05:
            # a small but continuous flow (dripping tap / toilet) raises the prior
            prob = 0.5 + 0.5 * prob
        return prob, emb


def model() -> nn.Module:
    torch.manual_seed(0)
    return LeakDetector().eval()


def _inputs(T, base_flow, pressure, dropout, seed):
    g = torch.Generator().manual_seed(seed)
    flow = base_flow + (torch.rand(2, T, generator=g) > 0.7).float() * (3.0 + torch.rand(2, T, generator=g))
    p = torch.full((2, T), pressure) + 0.1 * torch.rand(2, T, generator=g)
    if dropout:
        p[:, T // 3: T // 3 + 3] = 0.0
    return flow, p


def example_inputs() -> tuple:
    return _inputs(64, 0.0, 3.0, False, 0)


def dynamic_shapes():
    t = torch.export.Dim("t", min=8, max=256)
    return ({1: t}, {1: t})


def verify_inputs() -> list:
    return [
        _inputs(61, 1.0, 1.5, False, 1),   # burst: early return, padded length
        _inputs(100, 0.2, 3.0, True, 2),   # dripping + pressure dropout imputed, padded
        _inputs(8, 0.0, 3.2, False, 3),    # normal use, shortest window
        _inputs(256, 1.0, 3.0, False, 4),  # continuous flow but normal pressure
        _inputs(37, 0.8, 1.4, True, 5),    # burst with dropout (imputation then early return)
    ]
