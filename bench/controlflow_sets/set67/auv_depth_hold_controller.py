"""AUV depth-hold autopilot replayed over a logged sensor stream.

PID on depth error with conditional integration (anti-windup: the integrator
freezes while the elevator is saturated) plus a small learned feed-forward
term from pitch / speed. If the altimeter reports the seabed closer than the
safety altitude the vehicle aborts: full rise elevator for the rest of the
log.

Constructs: 1, 2, 3, 5, 6, 7, 9
"""
import torch
import torch.nn as nn
from torch.export import Dim


class AUVDepthHold(nn.Module):
    def __init__(self, use_feedforward=True):
        super().__init__()
        self.kp, self.ki, self.kd = 0.08, 0.01, 0.05
        self.dt = 0.1
        self.u_max = 0.35          # elevator limit (rad)
        self.min_altitude = 2.0    # metres above seabed
        self.use_feedforward = use_feedforward
        self.ff = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def saturate(self, u):
        if u.abs() > self.u_max:
            return u.sign() * self.u_max, torch.tensor(True)
        return u, torch.tensor(False)

    def forward(self, sensors, depth_ref):
        integ = torch.zeros(1)
        prev_err = depth_ref - sensors[0, 0:1]
        cmds = []
        for t in range(sensors.shape[0]):
            depth, pitch, speed, alt = sensors[t, 0:1], sensors[t, 1:2], sensors[t, 2:3], sensors[t, 3:4]
            if alt < self.min_altitude:
                # seabed too close: abort the dive
                cmds.append(torch.full((1,), -self.u_max))
                break
            err = depth_ref - depth
            deriv = (err - prev_err) / self.dt
            u = self.kp * err + self.ki * integ + self.kd * deriv
            if self.use_feedforward:  # static
                u = u + 0.05 * torch.tanh(self.ff(torch.cat([pitch, speed, err])))
            u_sat, saturated = self.saturate(u)
            if not saturated:
                integ = integ + err * self.dt
            cmds.append(u_sat)
            prev_err = err

        out = torch.cat(cmds)
        if out.shape[0] < sensors.shape[0]:
            fill = torch.full((sensors.shape[0] - out.shape[0],), -self.u_max)
            out = torch.cat([out, fill])
        return out, integ


def model():
    torch.manual_seed(67)
    return AUVDepthHold().eval()


def _log(T, d0, ref, alt_floor_at=None, alt0=20.0, seed=0):
    gen = torch.Generator().manual_seed(seed)
    t = torch.arange(T, dtype=torch.float32)
    depth = ref + (d0 - ref) * torch.exp(-t / 6.0) + 0.01 * torch.randn(T, generator=gen)
    pitch = 0.05 * torch.sin(t / 5.0)
    speed = torch.full((T,), 1.5)
    alt = torch.full((T,), alt0)
    if alt_floor_at is not None:
        alt[alt_floor_at:] = 1.2
    return torch.stack([depth, pitch, speed, alt], dim=1), torch.tensor([ref])


def example_inputs():
    # dive from 5 m to 10 m: saturated at first, then tracking
    return _log(30, 5.0, 10.0, seed=1)


def dynamic_shapes():
    return ({0: Dim("steps", min=4, max=256)}, None)


def verify_inputs():
    return [
        example_inputs(),                          # saturated (no integration) then unsaturated (integrates); never aborts
        _log(16, 6.0, 12.0, alt_floor_at=7, seed=2),   # abort at step 7: break, remaining steps filled
        _log(8, 3.0, 9.0, alt0=1.5, seed=3),       # abort on the first step (loop runs once)
        _log(12, 14.0, 8.0, seed=4),               # surfacing: negative saturation, then tracking; no abort
    ]
