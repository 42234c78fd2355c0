"""Elevator door obstruction check (door operator controller, runs every 20 ms).

Inputs: time-of-flight depth scan across the door opening (B, 64) in metres, light-curtain
beam states (B, 16) bool (True = beam interrupted), and door state (B, 2) = [opening fraction
0..1, closing speed m/s]. A 1D CNN scores the scan for a person/object in the door plane.
Returns obstruction probability and a command one-hot: [keep, reopen, slow_close, nudge].
"""

import torch
import torch.nn.functional as F
from torch import nn

DOOR_PLANE_M = 0.35  # depth of the door plane from the sensor


class ScanNet(nn.Module):
    def __init__(self, median_filter: bool = True):
        super().__init__()
        self.median_filter = median_filter
        self.conv = nn.Conv1d(1, 8, 5, padding=2)
        self.fc = nn.Linear(8, 1)

    def forward(self, depth: torch.Tensor) -> torch.Tensor:
        x = depth.unsqueeze(1)
        if self.median_filter:  # static
            x = F.pad(x, (1, 1), mode="replicate").unfold(2, 3, 1).median(-1).values
        near = torch.relu(DOOR_PLANE_M + 0.1 - x).amax(dim=2).squeeze(1)
        h = torch.relu(self.conv(x)).amax(dim=2)
        return torch.sigmoid(0.1 * self.fc(h).squeeze(-1) + 40.0 * near - 2.0)


class DoorGuard(nn.Module):
    def __init__(self):
        super().__init__()
        self.scan = ScanNet()
        self.register_buffer("cmds", torch.eye(4))

    def forward(self, depth: torch.Tensor, curtain: torch.Tensor, door: torch.Tensor):
        opening, speed = door[:, 0], door[:, 1]
        if (opening < 0.02).all():
            # Door closed and locked: nothing to check.
            return torch.zeros(depth.shape[0]), self.cmds[0]
        prob = self.scan(depth)
        blocked = curtain.any() or (prob > 0.5).any()
        if blocked and (speed > 0.01).any():
            cmd = self.cmds[1]
        elif blocked:
            cmd = self.cmds[0]
        elif not (opening > 0.3).all():
            cmd = self.cmds[2]
        else:
            cmd = self.cmds[3] if speed.abs().max() < 0.05 else self.cmds[0]
        return prob, cmd


def model() -> nn.Module:
    torch.manual_seed(0)
    return DoorGuard().eval()


def _scan(b, obstacle_at=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    d = 1.5 + 0.02 * torch.randn(b, 64, generator=g)
    if obstacle_at is not None:
        d[:, obstacle_at:obstacle_at + 6] = 0.3
    return d


def _curtain(b, beams=()):
    c = torch.zeros(b, 16, dtype=torch.bool)
    for k in beams:
        c[:, k] = True
    return c


def example_inputs() -> tuple:
    return _scan(2, 20, 1), _curtain(2), torch.tensor([[0.6, 0.25], [0.6, 0.25]])


def verify_inputs() -> list:
    return [
        (_scan(2, None, 2), _curtain(2), torch.tensor([[0.0, 0.0], [0.01, 0.0]])),          # closed
        (_scan(2, None, 3), _curtain(2, (4, 5)), torch.tensor([[0.5, 0.0], [0.5, 0.0]])),   # blocked, held open
        (_scan(2, None, 4), _curtain(2), torch.tensor([[0.2, 0.25], [0.2, 0.25]])),         # nearly closed: slow
        (_scan(2, None, 5), _curtain(2), torch.tensor([[1.0, 0.0], [1.0, 0.0]])),           # open, idle: nudge
        (_scan(2, None, 6), _curtain(2), torch.tensor([[0.8, 0.3], [0.8, 0.3]])),           # closing, clear
    ]
