"""Pedestrian trajectory forecasting: encode the observed track, roll out steps until the goal is reached."""
import torch
import torch.nn as nn


class MotionHead(nn.Module):
    def __init__(self, hidden, speed, slow_radius):
        super().__init__()
        self.out = nn.Linear(hidden, 2)
        self.speed = speed
        self.slow_radius = slow_radius

    def forward(self, h, to_goal, dist):
        wiggle = 0.1 * torch.tanh(self.out(h))[0]
        if dist < self.slow_radius:
            step = dist * 0.6          # decelerate when close
        else:
            step = torch.clamp(dist, max=self.speed)
        return wiggle + step * to_goal / dist


class TrajectoryRollout(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.encoder = nn.GRU(2, hidden, batch_first=True)
        self.cell = nn.GRUCell(4, hidden)
        self.head = MotionHead(hidden, speed=0.8, slow_radius=1.5)
        self.arrive_radius = 0.4
        self.max_steps = 12

    def forward(self, history, goal):
        # history [T, 2] observed positions, goal [2]
        vel = history[1:] - history[:-1]
        _, h = self.encoder(vel.unsqueeze(0))
        h = h[0]
        pos = history[-1]
        traj = []
        steps = 0
        while torch.linalg.norm(goal - pos) > self.arrive_radius and steps < self.max_steps:
            to_goal = goal - pos
            dist = torch.linalg.norm(to_goal)
            h = self.cell(torch.cat([pos, to_goal]).unsqueeze(0), h)
            pos = pos + self.head(h, to_goal, dist)
            traj.append(pos)
            steps += 1
        if len(traj) == 0:
            return pos.unsqueeze(0)
        return torch.stack(traj)


def model():
    torch.manual_seed(0)
    return TrajectoryRollout().eval()


def _case(seed, t, start, goal):
    g = torch.Generator().manual_seed(seed)
    start = torch.tensor(start)
    steps = 0.3 * torch.randn(t, 2, generator=g).cumsum(0)
    hist = start + steps - steps[-1]          # last observed point is exactly `start`
    return hist, torch.tensor(goal)


def example_inputs():
    return _case(0, 8, [0.0, 0.0], [3.0, 2.0])


def dynamic_shapes():
    t = torch.export.Dim("observed", min=3, max=40)
    return ({0: t}, None)


def verify_inputs():
    return [
        _case(1, 8, [0.0, 0.0], [0.1, 0.2]),      # already at the goal: no step
        _case(2, 5, [0.0, 0.0], [2.5, -1.0]),     # a few steps, decelerates near the goal
        _case(3, 12, [0.0, 0.0], [30.0, 10.0]),   # goal far away: stops at max_steps
        _case(4, 20, [1.0, 1.0], [1.9, 1.2]),     # one step (inside slow radius)
    ]
