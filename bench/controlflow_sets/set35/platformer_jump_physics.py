"""2D platformer jump predictor for a game AI / level-design tool: simulates a
character's jump with gravity and a learned air-control policy, checks the
one-way platforms for a landing each frame while falling (passing through
platforms from below), culls far-away platforms on big levels, and stops when
the character lands or falls out of the level.

Inputs: state [4] (x, y, vx, vy), platforms [P, 3] (x_left, x_right, top_y).
Outputs: trajectory [K, 2], landing info [2] (platform index or -1, frames).
"""
import torch
import torch.nn as nn


class AirControl(nn.Module):
    def __init__(self, max_accel=2.0):
        super().__init__()
        self.max_accel = max_accel
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x, y, vx, vy):
        return self.max_accel * torch.tanh(self.net(torch.stack([x / 10.0, y / 10.0, vx / 5.0, vy / 10.0]))).squeeze(-1)


class JumpPredictor(nn.Module):
    def __init__(self, gravity=30.0, dt=1.0 / 30.0, max_frames=120, kill_y=-10.0, max_platforms=8, view=12.0):
        super().__init__()
        self.gravity = gravity
        self.dt = dt
        self.max_frames = max_frames
        self.kill_y = kill_y
        self.max_platforms = max_platforms
        self.view = view
        self.air = AirControl()

    def cull(self, platforms, x):
        near = (platforms[:, 1] > x - self.view) & (platforms[:, 0] < x + self.view)
        return platforms[near], near.nonzero().flatten()

    def forward(self, state, platforms):
        x, y, vx, vy = state.unbind(0)
        index_map = torch.arange(platforms.shape[0])
        if platforms.shape[0] > self.max_platforms:
            platforms, index_map = self.cull(platforms, x)

        traj = []
        landed = -1
        frames = 0
        while landed < 0 and frames < self.max_frames:
            vx = vx + self.air(x, y, vx, vy) * self.dt
            vy = vy - self.gravity * self.dt
            nx = x + vx * self.dt
            ny = y + vy * self.dt
            if vy < 0:
                for i in range(platforms.shape[0]):
                    left, right, top = platforms[i].unbind(0)
                    if nx < left or nx > right:
                        continue
                    if y >= top and ny <= top:
                        ny = top
                        vy = torch.zeros_like(vy)
                        landed = int(index_map[i])
                        break
            x, y = nx, ny
            traj.append(torch.stack([x, y]))
            frames += 1
            if y < self.kill_y:
                # fell out of the level
                return torch.stack(traj), torch.tensor([-1.0, float(frames)])
        return torch.stack(traj), torch.tensor([float(landed), float(frames)])


def model():
    torch.manual_seed(13)
    return JumpPredictor().eval()


def example_inputs():
    state = torch.tensor([0.0, 0.0, 4.5, 12.5])
    platforms = torch.tensor([
        [-5.0, 1.5, 0.0],  # start ledge: left behind before the fall
        [3.0, 12.0, 1.2],  # ledge ahead: landing
        [2.5, 6.0, 4.0],  # high platform: character is below it when over it
    ])
    return state, platforms


def dynamic_shapes():
    return (None, {0: torch.export.Dim("n_platforms", min=2, max=64)})


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    lefts = torch.arange(20, dtype=torch.float32) * 3.0 - 20.0 + torch.rand(20, generator=g) * 0.5
    level = torch.stack([lefts, lefts + 2.0, torch.rand(20, generator=g) * 2.0 - 3.0], dim=1)
    return [
        example_inputs(),  # rising frames skip checks; falling frames skip out-of-range platforms (continue); lands on index 1
        (torch.tensor([0.0, 0.0, 1.0, 6.5]),
         torch.tensor([[5.0, 9.0, 0.0], [20.0, 30.0, -2.0]])),  # nothing underneath: falls below kill plane
        (torch.tensor([0.0, 0.0, 2.0, 8.5]), level),  # 20 platforms > 8: culled to nearby ones, lands
        (torch.tensor([0.0, 300.0, 0.0, 0.5]),
         torch.tensor([[-1.0, 1.0, -9.0], [-30.0, -20.0, 0.0]])),  # drop from high up: frame budget runs out in the air
    ]
