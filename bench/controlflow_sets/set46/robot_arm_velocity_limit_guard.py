"""T: safety layer that rescales a planned 7-DoF joint velocity trajectory to respect limits.

vel (T, 7) rad/s waypoints, dt (1,) seconds. Returns the safe trajectory (T, 7) and the
number of global rescaling iterations applied (1,).
Constructs: 1, 3, 4, 5, 6, 7
"""
import torch
import torch.nn as nn


class VelocityLimitGuard(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("vmax", torch.tensor([2.0, 2.0, 2.2, 2.2, 2.6, 2.6, 3.0]))
        self.register_buffer("amax", torch.tensor([8.0, 8.0, 9.0, 9.0, 12.0, 12.0, 15.0]))
        self.max_rounds = 12

    def _limit_accel(self, vel, dt):
        out = [vel[0]]
        for t in range(1, vel.shape[0]):
            dv = vel[t] - out[-1]
            # already within acceleration limits: keep the waypoint untouched
            if not (dv.abs() > self.amax * dt).any():
                out.append(vel[t])
                continue
            dv = torch.maximum(torch.minimum(dv, self.amax * dt), -self.amax * dt)
            out.append(out[-1] + dv)
        return torch.stack(out)

    def forward(self, vel, dt):
        rounds = 0
        while (vel.abs() > self.vmax).any() and rounds < self.max_rounds:
            vel = vel * 0.8
            rounds += 1
        vel = self._limit_accel(vel, dt)
        return vel, torch.tensor([float(rounds)])


def _traj(T, peak, seed, jerk=False):
    g = torch.Generator().manual_seed(seed)
    s = torch.sin(torch.linspace(0, 3.1416, T)).unsqueeze(1)
    vel = peak * s * (0.6 + 0.4 * torch.rand(1, 7, generator=g))
    if jerk:
        vel[T // 2] += 1.5
    return vel, torch.tensor([0.05])


def model():
    torch.manual_seed(4608)
    return VelocityLimitGuard().eval()


def example_inputs():
    return _traj(20, 2.6, 1)


def dynamic_shapes():
    return ({0: torch.export.Dim("waypoints", min=2, max=200)}, None)


def verify_inputs():
    return [
        example_inputs(),              # a couple of rescaling rounds, smooth enough for accel
        _traj(2, 1.0, 2),              # T=min, within limits: while runs 0 times; big step from 0 -> accel clamp
        _traj(30, 1.5, 3, jerk=True),  # no rescale, spike triggers accel clamp
        _traj(200, 40.0, 4),           # T=max, huge: while stops on the round cap (rounds < 12 false)
        _traj(50, 2.3, 5),             # exactly one rescale round
    ]
