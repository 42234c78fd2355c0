"""Potential-field local planner for a warehouse floor robot.

The robot moves towards the goal (attractive field) and away from nearby
obstacles (repulsive field with a learned per-obstacle-size gain).  Each step is
clipped to the robot's maximum speed; the planner stops when the goal is
reached.  Returns the visited waypoints (start included).
"""
import torch
import torch.nn as nn
from torch.export import Dim


class RepulsionGain(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, radii):
        return 0.5 + torch.sigmoid(self.net(radii.unsqueeze(-1))).squeeze(-1)


class PotentialFieldPlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = RepulsionGain()
        self.k_att = 0.4
        self.influence = 1.5
        self.max_step = 0.5
        self.goal_tol = 0.2
        self.max_steps = 40

    def repulsion(self, pos, obstacles, radii):
        diff = pos - obstacles
        dist = diff.norm(dim=1)
        clearance = (dist - radii).clamp(min=0.05)
        weight = self.gain(radii) * torch.exp(-clearance / 0.3) / clearance
        return (weight.unsqueeze(1) * diff / dist.unsqueeze(1)).sum(0), clearance.min()

    def limit_speed(self, force):
        fnorm = force.norm()
        if fnorm > self.max_step:
            return force * (self.max_step / fnorm)
        return force

    def forward(self, start, goal, obstacles, radii):
        pos = start
        path = [pos]
        for step in range(self.max_steps):
            to_goal = goal - pos
            if to_goal.norm() < self.goal_tol:
                break
            force = self.k_att * to_goal
            rep, nearest = self.repulsion(pos, obstacles, radii)
            if nearest < self.influence:
                force = force + rep
            pos = pos + self.limit_speed(force)
            path.append(pos)
        return torch.stack(path)


def model():
    torch.manual_seed(0)
    return PotentialFieldPlanner().eval()


def _make(seed, start, goal, n_obs, spread=4.0):
    g = torch.Generator().manual_seed(seed)
    start = torch.tensor(start)
    goal = torch.tensor(goal)
    t = torch.rand(n_obs, 1, generator=g)
    side = torch.randn(n_obs, 2, generator=g) * spread * 0.25
    obstacles = start + t * (goal - start) + side
    radii = 0.2 + 0.3 * torch.rand(n_obs, generator=g)
    return start, goal, obstacles, radii


def example_inputs():
    return _make(0, [0.0, 0.0], [5.0, 3.0], 4)


def dynamic_shapes():
    n = Dim("obstacles", min=2, max=32)
    return (None, None, {0: n}, {0: n})


def verify_inputs():
    return [
        _make(1, [0.0, 0.0], [5.0, 3.0], 4),                       # weave through obstacles
        _make(2, [1.0, 1.0], [1.05, 1.1], 3, spread=40.0),         # already at the goal
        _make(3, [0.0, 0.0], [0.3, 0.2], 2, spread=40.0),          # one short step
        _make(6, [0.0, 0.0], [30.0, 25.0], 6),                     # too far: steps run out
        _make(5, [-2.0, 1.0], [4.0, -1.0], 12, spread=2.0),        # cluttered aisle
    ]
