"""Preprocessing for a 1-D sensor signal before a conv classifier: `bool(...)`, `.item()`
comparisons and `.all()` decide whether the signal is flat, clipped or normal; early return for
a flat signal."""

import torch
from torch import nn


class SensorNet(nn.Module):
    def __init__(self, clip_level: float = 1.0):
        super().__init__()
        self.conv = nn.Conv1d(3, 16, 5, padding=2)
        self.fc = nn.Linear(16, 4)
        self.clip_level = clip_level

    def forward(self, sig: torch.Tensor) -> torch.Tensor:
        # sig: [B, 3, T]
        spread = sig.amax(dim=-1) - sig.amin(dim=-1)
        if bool((spread < 1e-3).all()):
            return torch.zeros(sig.shape[0], 4)
        clipped = (sig.abs() >= self.clip_level).float().mean().item()
        if clipped > 0.2:
            sig = sig / sig.abs().amax(dim=-1, keepdim=True)
        else:
            sig = (sig - sig.mean(dim=-1, keepdim=True)) / (sig.std(dim=-1, keepdim=True) + 1e-5)
        h = torch.relu(self.conv(sig)).mean(dim=-1)
        return self.fc(h)


def model() -> nn.Module:
    torch.manual_seed(0)
    return SensorNet().eval()


def example_inputs() -> tuple:
    torch.manual_seed(1)
    return (torch.randn(2, 3, 128) * 0.3,)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=1, max=16), 2: torch.export.Dim("time", min=8, max=2048)},)


def verify_inputs() -> list:
    g = torch.Generator().manual_seed(15)
    return [
        (torch.full((2, 3, 64), 0.7),),  # flat: early return
        (torch.randn(1, 3, 256, generator=g) * 0.2,),  # normal
        (torch.randn(3, 3, 128, generator=g) * 3.0,),  # clipped
    ]
