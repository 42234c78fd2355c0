"""Quadrotor attitude controller: cascaded PID with mode switching, anti-windup and
a learned feed-forward term, then an X-frame motor mixer with saturation."""
import math

import torch
from torch import nn


def saturate(cmd):
    peak = cmd.abs().max()
    if peak <= 1.0:
        return cmd
    # keep the direction of the command, shrink the magnitude
    return cmd / peak


class AttitudeController(nn.Module):
    def __init__(self):
        super().__init__()
        self.kp = nn.Parameter(torch.tensor([4.0, 4.0, 2.0]))
        self.ki = nn.Parameter(torch.tensor([0.5, 0.5, 0.2]))
        self.kd = nn.Parameter(torch.tensor([0.08, 0.08, 0.05]))
        self.ff = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3))
        mix = torch.tensor([[1.0, -1.0, 1.0, 1.0],
                            [1.0, 1.0, -1.0, 1.0],
                            [1.0, 1.0, 1.0, -1.0],
                            [1.0, -1.0, -1.0, -1.0]])
        self.register_buffer("mix", mix)
        self.recover_angle = 0.8   # rad
        self.rate_limit = 6.0      # rad/s
        self.dt = 0.004

    def forward(self, att, att_sp, rates, integ, thrust):
        err = att_sp - att
        if err.abs().max() > math.pi:
            err = torch.remainder(err + math.pi, 2 * math.pi) - math.pi
        err_norm = err.norm()
        rate_norm = rates.norm()
        if err_norm > self.recover_angle:
            # recovery: P only, integrator reset
            torque = self.kp * err
            integ = torch.zeros_like(integ)
        elif rate_norm > self.rate_limit and not err_norm < 0.05:
            torque = self.kp * err - 4.0 * self.kd * rates
        else:
            integ_new = integ + err * self.dt
            torque = self.kp * err + self.ki * integ_new - self.kd * rates
            saturated = torque.abs() > 1.0
            integ = integ_new if not saturated.any() else integ
        torque = torque + 0.05 * self.ff(torch.cat([err, rates]))
        motors = self.mix @ torch.cat([thrust.reshape(1), torque])
        return saturate(motors * 0.5), integ


def model():
    torch.manual_seed(0)
    return AttitudeController().eval()


def example_inputs():
    return (torch.tensor([0.05, -0.02, 0.3]), torch.tensor([0.0, 0.0, 0.25]),
            torch.tensor([0.1, 0.2, -0.1]), torch.zeros(3), torch.tensor(0.5))


def verify_inputs():
    z = torch.zeros(3)
    return [
        # yaw wrap-around: a -6 rad error is really +0.28 rad -> normal PID
        (torch.tensor([0.0, 0.0, 3.0]), torch.tensor([0.0, 0.0, -3.0]), z, z, torch.tensor(0.6)),
        (torch.tensor([0.9, 0.0, 0.0]), z, z, z, torch.tensor(1.5)),
        # spinning fast with moderate error -> rate damping
        (torch.tensor([0.2, 0.1, 0.0]), z, torch.tensor([5.0, 4.0, 1.0]), z, torch.tensor(0.5)),
        # spinning fast but on target -> PID; integrator saturates torque
        (torch.tensor([0.01, 0.0, 0.0]), z, torch.tensor([7.0, 0.0, 0.0]), torch.tensor([5.0, 0.0, 0.0]), torch.tensor(0.4)),
    ]
