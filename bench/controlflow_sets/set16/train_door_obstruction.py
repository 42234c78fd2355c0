"""Train-door obstruction detector: door-motor current trace + a depth image of the
door gap. Current is scanned in windows; a stall (current well above the closing
profile) or an object in the gap (depth closer than the door plane) reopens the
door. Returns (reopen flag, per-window stall scores, gap occupancy).
"""
import torch
from torch import nn

WIN = 10
DOOR_PLANE = 0.35  # metres from the sensor


class GapNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                               nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, depth):
        near = (depth < DOOR_PLANE - 0.05).float()
        return torch.sigmoid(self.f(depth) + 4.0 * near - 2.0)


class DoorGuard(nn.Module):
    def __init__(self, stall_ratio=1.6):
        super().__init__()
        self.gap = GapNet()
        self.stall_ratio = stall_ratio

    def forward(self, current, depth):  # (T,), (1, 1, 24, 32)
        occ = self.gap(depth).mean().reshape(1)
        nominal = current[:WIN].mean()
        scores = []
        stalled = torch.zeros((), dtype=torch.bool)
        for w in range(current.shape[0] // WIN):
            seg = current[w * WIN:(w + 1) * WIN]
            r = seg.mean() / nominal.clamp_min(1e-3)
            scores.append(r)
            if r > self.stall_ratio or seg.amax() > 3.0 * nominal:
                stalled = torch.ones((), dtype=torch.bool)
        in_gap = (depth < DOOR_PLANE - 0.05).float().mean() > 0.02
        reopen = stalled or in_gap
        flag = torch.ones(1) if reopen else torch.zeros(1)
        return flag, torch.stack(scores), occ


def model():
    torch.manual_seed(0)
    return DoorGuard().eval()


def _inp(n_win, stall_at, spike, obj, seed):
    g = torch.Generator().manual_seed(seed)
    cur = 1.0 + 0.05 * torch.randn(n_win * WIN, generator=g)
    if stall_at is not None:
        cur[stall_at * WIN:] = 2.0
    if spike is not None:
        cur[spike] = 4.0
    depth = DOOR_PLANE + 0.5 + 0.02 * torch.rand(1, 1, 24, 32, generator=g)
    if obj:
        depth[..., 8:16, 10:20] = 0.15
    return cur, depth


def example_inputs():
    return _inp(5, None, None, False, 0)


def dynamic_shapes():
    return ({0: WIN * torch.export.Dim("windows", min=2, max=100)}, None)


def verify_inputs():
    return [
        _inp(8, 5, None, False, 1),   # motor stall
        _inp(3, None, 25, False, 2),  # current spike in last window
        _inp(6, None, None, True, 3), # bag in the gap
        _inp(2, None, None, False, 4),
    ]
