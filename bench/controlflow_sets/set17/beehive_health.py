"""Beehive health monitor: acoustic + temperature frames, iterative refinement until stable (typical)."""
import torch
from torch import nn


class HiveNet(nn.Module):
    def __init__(self, feat=12, hidden=24, classes=4):
        super().__init__()
        self.proj = nn.Linear(feat, hidden)
        self.refine = nn.Linear(hidden, hidden)
        self.cls = nn.Linear(hidden, classes)
        self.max_iters = 5
        self.tol = 5e-2

    def forward(self, frames: torch.Tensor, temp: torch.Tensor):
        # frames: [B, T, feat], temp: [B]
        h = torch.tanh(self.proj(frames).mean(dim=1))
        it = torch.zeros((), dtype=torch.int64)
        delta = (frames[:, -1] - frames[:, 0]).abs().max()  # no drift -> no refinement
        while delta > self.tol and it < self.max_iters:
            nh = torch.tanh(self.refine(h)) * 0.5 + h * 0.5
            delta = (nh - h).abs().max()
            h = nh
            it = it + 1
        logits = self.cls(h)
        cold = temp.mean() < 30.0
        hot = temp.mean() > 38.0
        if cold or hot:
            logits = logits - 1.0
        return logits.softmax(-1), it


def model():
    torch.manual_seed(1)
    return HiveNet().eval()


def _f(scale, b=2, t=10):
    g = torch.Generator().manual_seed(2)
    return torch.randn(b, t, 12, generator=g) * scale


def example_inputs():
    return (_f(1.0), torch.full((2,), 35.0))


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=16)
    return ({0: b, 1: torch.export.Dim("time", min=2, max=128)}, {0: b})


def verify_inputs():
    return [(_f(0.5, 3, 20), torch.full((3,), 25.0)), (_f(2.0), torch.full((2,), 40.0)),
            (_f(1.0, 4, 5), torch.full((4,), 34.0)), (torch.ones(2, 6, 12) * 0.3, torch.full((2,), 33.0))]
