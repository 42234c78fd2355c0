"""Swipe gesture classifier for a wrist IMU (phone / smartwatch).

Input: accelerometer window (B, T, 3), T dynamic. Long windows are pooled, the time axis is
padded to a multiple of 4, a motionless window short-circuits to "none", and the dominant
displacement axis adds a direction prior.
"""

import torch
import torch.nn.functional as F
from torch import nn

CLASSES = ("left", "right", "up", "down", "none")


class SwipeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 16, 5, padding=2)
        self.conv2 = nn.Conv1d(16, 32, 5, padding=2, stride=2)
        self.head = nn.Linear(32, len(CLASSES))
        self.register_buffer("dir_bias", torch.eye(len(CLASSES)))

    def forward(self, acc: torch.Tensor) -> torch.Tensor:
        x = acc.transpose(1, 2)
        if x.shape[2] > 64:
            x = F.avg_pool1d(x, 2)
        pad = (4 - x.shape[2] % 4) % 4
        x = F.pad(x, (0, pad))
        h = torch.relu(self.conv1(x))
        h = torch.relu(self.conv2(h))
        logits = self.head(h.mean(dim=2))

        energy = acc.pow(2).sum(-1).mean()
        if energy < 0.05:
            # Device at rest: no gesture, skip the direction logic.
            return torch.softmax(logits * 0.0 + 8.0 * self.dir_bias[4], dim=-1)

        disp = acc[:, :, :2].sum(dim=1).mean(dim=0)
        dx, dy = disp[0], disp[1]
        if dx.abs() > dy.abs():
            prior = self.dir_bias[0] if dx < 0 else self.dir_bias[1]
        else:
            prior = self.dir_bias[2] if dy > 0 else self.dir_bias[3]
        return torch.softmax(logits + 2.0 * prior, dim=-1)


def model() -> nn.Module:
    torch.manual_seed(0)
    return SwipeNet().eval()


def _swipe(t, dx, dy, seed):
    g = torch.Generator().manual_seed(seed)
    base = 0.05 * torch.randn(1, t, 3, generator=g)
    ramp = torch.sin(torch.linspace(0, 3.14159, t)).view(1, t, 1)
    return base + ramp * torch.tensor([dx, dy, 0.0]).view(1, 1, 3)


def example_inputs() -> tuple:
    return (_swipe(48, -1.0, 0.2, 1),)


def dynamic_shapes():
    return ({1: torch.export.Dim("t", min=8, max=256)},)


def verify_inputs() -> list:
    return [
        (0.01 * torch.randn(1, 40, 3, generator=torch.Generator().manual_seed(2)),),  # at rest
        (_swipe(30, 1.2, -0.3, 3),),    # right
        (_swipe(100, 0.1, 1.5, 4),),    # up, long window (pooled)
        (_swipe(21, -0.2, -0.9, 5),),   # down, odd length padded
    ]
