"""Push-recovery controller for a small humanoid.

From the centre-of-mass state the controller computes the instantaneous capture
point (linear inverted pendulum).  Depending on how far it lies outside the
support rectangle of the feet it chooses the ankle, hip or stepping strategy;
each strategy is a small policy network fed with an IMU history encoding.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


class ImuEncoder(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.conv = nn.Conv1d(6, hidden, 5, padding=2)

    def forward(self, imu):                      # imu: [T, 6]
        h = torch.relu(self.conv(imu.t()[None]))  # [1, hidden, T]
        return h.mean(-1)[0]


class StepStrategy(nn.Module):
    def __init__(self, feat, n_joints=12, max_step=0.25):
        super().__init__()
        self.max_step = max_step
        self.net = nn.Sequential(nn.Linear(feat + 4 + 2, 32), nn.Tanh(), nn.Linear(32, n_joints))

    def forward(self, feat, com, capture):
        step = capture - com[:2]
        length = step.norm()
        if length > self.max_step:
            step = step * (self.max_step / length)   # reachable part only, next cycle steps again
        return self.net(torch.cat([feat, com, step]))


class BalanceController(nn.Module):
    def __init__(self, hidden=16, n_joints=12, torque_limit=8.0):
        super().__init__()
        self.omega = math.sqrt(9.81 / 0.45)      # LIPM natural frequency, CoM height 0.45 m
        self.half_len, self.half_width = 0.09, 0.07
        self.hip_range = 0.04
        self.torque_limit = torque_limit
        self.encoder = ImuEncoder(hidden)
        self.ankle = nn.Sequential(nn.Linear(hidden + 4, 32), nn.Tanh(), nn.Linear(32, n_joints))
        self.hip = nn.Sequential(nn.Linear(hidden + 4, 32), nn.Tanh(), nn.Linear(32, n_joints))
        self.step = StepStrategy(hidden, n_joints)

    def support_margin(self, p):
        """Signed distance from the support rectangle (positive inside)."""
        dx = self.half_len - p[0].abs()
        dy = self.half_width - p[1].abs()
        if dx > 0 and dy > 0:
            return torch.minimum(dx, dy)
        return -torch.stack([torch.relu(-dx), torch.relu(-dy)]).norm()

    def forward(self, imu, com):
        feat = self.encoder(imu)
        capture = com[:2] + com[2:] / self.omega
        margin = self.support_margin(capture)
        if margin > 0:
            cmd = self.ankle(torch.cat([feat, com]))
            strategy = torch.tensor(0)
        elif margin > -self.hip_range:
            cmd = self.hip(torch.cat([feat, com]))
            strategy = torch.tensor(1)
        else:
            cmd = self.step(feat, com, capture)
            strategy = torch.tensor(2)
        if self.torque_limit is not None:
            cmd = self.torque_limit * torch.tanh(cmd / self.torque_limit)
        return cmd, strategy, capture, margin


def model():
    torch.manual_seed(12)
    return BalanceController().eval()


def _gen_imu(n, seed, shake=0.1):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([0.0, 0.0, 9.81, 0.0, 0.0, 0.0])
    return base + shake * torch.randn(n, 6, generator=g)


def example_inputs():
    return _gen_imu(50, 0), torch.tensor([0.01, 0.00, 0.05, -0.02])


def dynamic_shapes():
    return ({0: Dim("imu_steps", min=4, max=200)}, None)


def verify_inputs():
    return [
        example_inputs(),                                           # capture point inside feet -> ankle
        (_gen_imu(20, 1, 0.5), torch.tensor([0.02, 0.01, 0.45, 0.0])),  # x just past the toe -> hip
        (_gen_imu(8, 2, 1.0), torch.tensor([0.0, 0.02, 0.1, 0.60])),    # sideways shove: y past edge by ~0.08 -> step (short, not clipped)
        (_gen_imu(120, 3, 2.0), torch.tensor([0.05, -0.03, 1.6, -0.9])),  # hard push -> step, clipped to max_step
        (_gen_imu(4, 4, 0.2), torch.tensor([0.10, 0.08, 0.0, 0.0])),    # CoM at the corner, outside in x and y -> hip
    ]
