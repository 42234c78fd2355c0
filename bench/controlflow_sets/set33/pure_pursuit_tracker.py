"""Pure-pursuit path tracking for a differential-drive robot.

path: [N, 2] waypoints in the world frame (dynamic N), pose: [x, y, heading].
Picks the first waypoint ahead of the robot that is at least one look-ahead
distance away, steers along the arc through it, and lets a small learned head
scale the cruise speed.  Returns [v, omega].
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class PurePursuit(nn.Module):
    def __init__(self, lookahead=1.5, v_max=1.2, goal_tol=0.2, slow_radius=2.0):
        super().__init__()
        self.lookahead = lookahead
        self.v_max = v_max
        self.goal_tol = goal_tol
        self.slow_radius = slow_radius
        self.speed_head = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, path, pose):
        pos = pose[:2]
        heading = pose[2]
        goal_dist = torch.linalg.norm(path[-1] - pos)
        if goal_dist < self.goal_tol:
            return torch.zeros(2)

        forward_dir = torch.stack([torch.cos(heading), torch.sin(heading)])
        target = path[-1]
        for i in range(path.shape[0]):
            rel = path[i] - pos
            if (rel * forward_dir).sum() < 0:
                continue  # waypoint is behind us
            if torch.linalg.norm(rel) >= self.lookahead:
                target = path[i]
                break

        rel = target - pos
        local_y = -torch.sin(heading) * rel[0] + torch.cos(heading) * rel[1]
        curvature = 2.0 * local_y / (rel * rel).sum()

        feats = torch.stack([curvature, goal_dist / 10.0, local_y])
        v = self.v_max * torch.sigmoid(self.speed_head(feats)).squeeze(-1) / (1.0 + 0.5 * curvature.abs())
        if goal_dist < self.slow_radius:
            v = v * goal_dist / self.slow_radius
        return torch.stack([v, v * curvature])


def model():
    torch.manual_seed(11)
    return PurePursuit().eval()


def _s_curve(n, length=10.0):
    t = torch.linspace(0.0, 1.0, n)
    return torch.stack([length * t, 1.5 * torch.sin(2 * math.pi * t)], dim=1)


def example_inputs():
    return (_s_curve(40), torch.tensor([2.05, 0.9, 0.3]))


def dynamic_shapes():
    return ({0: Dim("waypoints", min=2, max=256)}, None)


def verify_inputs():
    return [
        example_inputs(),                                  # mid-path: skips points behind, breaks at look-ahead point
        (_s_curve(40), torch.tensor([9.95, 0.05, 0.0])),   # within goal tolerance: early return (stop)
        (_s_curve(25), torch.tensor([-2.0, 0.3, 0.1])),    # before the start: first waypoint already far -> break at i=0
        (_s_curve(30), torch.tensor([9.0, -0.4, 0.2])),    # near the end: nothing far enough ahead, loop ends, aims at goal, slows down
        (torch.tensor([[0.0, 0.0], [3.0, 2.5]]), torch.tensor([4.0, 3.5, 0.7])),  # 2 waypoints, overshot and facing away: both skipped
    ]
