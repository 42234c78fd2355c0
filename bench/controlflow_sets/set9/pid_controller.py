"""Drone attitude controller: PID with a learned feed-forward term and anti-windup.

Rolls the closed loop (controller + first-order plant) over a setpoint trajectory of
dynamic length. When the commanded torque saturates and the error would push it
further into saturation, the integrator is frozen (conditional integration): the
integral keeps its previous value. A config flag selects derivative-on-measurement
(plain Python). Output: (T, 3) attitude trajectory and (T, 3) torques.
"""

import torch
import torch.nn as nn
from torch.export import Dim


class FeedForward(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 3))

    def forward(self, setpoint, state):
        return 0.1 * self.net(torch.cat([setpoint, state]))


class PIDLoop(nn.Module):
    def __init__(self, kp=2.0, ki=0.8, kd=0.15, u_max=1.5, dt=0.02, tau=0.1, derivative_on_measurement=True):
        super().__init__()
        self.register_buffer("kp", torch.full((3,), kp))
        self.register_buffer("ki", torch.full((3,), ki))
        self.register_buffer("kd", torch.full((3,), kd))
        self.u_max = u_max
        self.dt = dt
        self.tau = tau
        self.d_on_meas = derivative_on_measurement
        self.ff = FeedForward()

    def forward(self, setpoints, x0):
        x = x0
        integral = torch.zeros(3)
        prev_err = setpoints[0] - x0
        prev_x = x0
        xs, us = [], []
        for t in range(setpoints.shape[0]):
            sp = setpoints[t]
            err = sp - x
            if self.d_on_meas:  # static config flag
                deriv = -(x - prev_x) / self.dt
            else:
                deriv = (err - prev_err) / self.dt
            candidate = integral + err * self.dt
            u = self.kp * err + self.ki * candidate + self.kd * deriv + self.ff(sp, x)
            saturated = u.abs() > self.u_max
            if saturated.any() and (err * u > 0).any():
                u = u.clamp(-self.u_max, self.u_max)  # freeze integrator
            else:
                integral = candidate
                u = u.clamp(-self.u_max, self.u_max)
            prev_err, prev_x = err, x
            x = x + self.dt / self.tau * (u - x)  # first-order actuator + plant
            xs.append(x)
            us.append(u)
        return torch.stack(xs), torch.stack(us)


def model():
    torch.manual_seed(0)
    return PIDLoop().eval()


def _traj(t, amp, phase=0.0):
    s = torch.linspace(0.0, 1.0, t).unsqueeze(1)
    return amp * torch.sin(6.0 * s + torch.tensor([0.0, 1.0, 2.0]) + phase)


def example_inputs():
    return (_traj(50, 0.3), torch.zeros(3))


def dynamic_shapes():
    return {"setpoints": {0: Dim("steps", min=2, max=500)}, "x0": None}


def verify_inputs():
    return [
        (_traj(40, 0.2), torch.tensor([0.05, -0.02, 0.0])),  # never saturates
        (_traj(120, 2.0, 0.5), torch.zeros(3)),  # saturates, windup guard
        (_traj(2, 0.1), torch.tensor([1.2, -1.2, 0.3])),  # minimal length
    ]
