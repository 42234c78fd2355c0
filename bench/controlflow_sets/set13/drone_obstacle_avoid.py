"""Reactive obstacle avoidance for a small drone from a forward depth camera.

Depth is reduced to 8 horizontal sectors of nearest-obstacle distance, refined by a tiny net,
and a rule-based policy picks (forward speed, yaw rate, brake).
"""

import torch
import torch.nn.functional as F
from torch import nn


def steer_toward_gap(d: torch.Tensor, safe: float) -> torch.Tensor:
    """Yaw rate in [-1, 1] toward the clearest sector; 0 when nothing is clearly better."""
    best = torch.argmax(d)
    if d[best] < 1.5 * safe:
        return torch.zeros(())
    half = (d.shape[0] - 1) / 2.0
    return (best.float() - half) / half


class SectorRefine(nn.Module):
    def __init__(self, n: int = 8):
        super().__init__()
        self.fc = nn.Linear(n, n)

    def forward(self, s: torch.Tensor) -> torch.Tensor:
        return s * (1.0 + 0.05 * torch.tanh(self.fc(s)))


class ObstacleAvoid(nn.Module):
    def __init__(self, stop_dist: float = 0.8, safe_dist: float = 2.0, cruise_dist: float = 6.0):
        super().__init__()
        self.refine = SectorRefine()
        self.stop_dist = stop_dist
        self.safe = safe_dist
        self.cruise = cruise_dist

    def forward(self, depth: torch.Tensor) -> torch.Tensor:
        # depth: (1, 1, H, W) metres
        if depth.shape[-1] > 96:
            depth = F.avg_pool2d(depth, 2)
        sectors = -F.adaptive_max_pool2d(-depth, (1, 8)).flatten()  # nearest obstacle per sector
        d = self.refine(sectors)
        center = d[3:5].min()
        if center < self.stop_dist:
            return torch.stack([torch.zeros(()), torch.zeros(()), torch.ones(())])
        if center > self.cruise:
            speed = torch.ones(())
            yaw = torch.zeros(())
        elif d[:3].min() > self.safe or d[5:].min() > self.safe:
            speed = 0.5 * torch.ones(())
            yaw = steer_toward_gap(d, self.safe)
        else:
            speed = 0.2 * center / self.cruise
            yaw = torch.zeros(())
        return torch.stack([speed, yaw, torch.zeros(())])


def model() -> nn.Module:
    torch.manual_seed(0)
    return ObstacleAvoid().eval()


def _scene(h, w, left, center, right, seed):
    g = torch.Generator().manual_seed(seed)
    d = torch.empty(1, 1, h, w)
    third = w // 3
    d[..., :third] = left
    d[..., third:w - third] = center
    d[..., w - third:] = right
    ramp = 0.3 * torch.arange(w).float() / w  # distances drift across the view
    return d + ramp + 0.05 * torch.rand(1, 1, h, w, generator=g)


def example_inputs() -> tuple:
    return (_scene(48, 64, 3.0, 4.0, 9.0, 0),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=16, max=256), 3: torch.export.Dim("w", min=16, max=256)},)


def verify_inputs() -> list:
    return [
        (_scene(48, 64, 9.0, 9.0, 9.0, 1),),     # open space: cruise
        (_scene(60, 128, 5.0, 0.5, 5.0, 2),),    # wall ahead: brake (and downsample path)
        (_scene(32, 48, 1.0, 1.5, 1.2, 3),),     # cluttered: creep
        (_scene(40, 120, 2.5, 2.7, 2.2, 4),),    # sides clear but no sector clearly best: yaw 0
        (_scene(40, 64, 1.0, 3.0, 8.0, 5),),     # only the right side is clear: steer right
    ]
