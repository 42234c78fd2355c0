"""Golf launch-monitor ball-flight model: carry, bounce and roll for each shot.

Flight is integrated with drag and Magnus lift (coefficients depend on the flow regime and spin
ratio) until the ball lands or a time limit is hit (lost ball). The ball then bounces while its
vertical speed is large enough, and finally rolls out with turf friction. A small learned model
predicts the spin decay rate per shot (bounded around a nominal value).
"""
import math

import torch
import torch.nn as nn

G = 9.81
RHO_A_OVER_M = 1.225 * 0.00143 / 0.0459  # rho * area / mass


def aero_coeffs(speed, spin_rps):
    spin_ratio = spin_rps * 0.0214 * 2 * math.pi / torch.clamp(speed, min=1.0)
    if speed > 20.0:
        cd = 0.22 + 0.2 * spin_ratio  # post-critical (dimpled ball) regime
    else:
        cd = 0.45
    cl = torch.clamp(1.2 * spin_ratio, max=0.35)
    return cd, cl


def fly(state, spin_rps, decay, wind, dt, max_steps):
    """Integrate until landing; returns landing state, apex and flight time (-1 if lost)."""
    pos, vel = state
    apex = pos[1]
    steps = 0
    while pos[1] >= 0.0:
        if steps >= max_steps:
            return pos, vel, apex, torch.tensor(-1.0)
        rel = vel - torch.stack([wind, torch.zeros(())])
        speed = torch.linalg.vector_norm(rel)
        cd, cl = aero_coeffs(speed, spin_rps)
        k = 0.5 * RHO_A_OVER_M * speed
        drag = -k * cd * rel
        lift = k * cl * torch.stack([-rel[1], rel[0]])  # backspin lifts perpendicular to the flow
        acc = drag + lift + torch.tensor([0.0, -G])
        vel = vel + acc * dt
        pos = pos + vel * dt
        apex = torch.maximum(apex, pos[1])
        spin_rps = spin_rps * (1.0 - decay * dt)
        steps += 1
    return pos, vel, apex, torch.tensor(steps * dt)


class BallFlight(nn.Module):
    def __init__(self, dt=0.1, max_steps=80, restitution=0.45, rolling=0.35):
        super().__init__()
        self.dt = dt
        self.max_steps = max_steps  # radar tracking window: 8 s
        self.restitution = restitution
        self.rolling = rolling
        self.decay_net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, launch, wind):
        # launch: (B, 3) ball speed m/s, launch angle deg, backspin rpm; wind: (1,) headwind(-)/tailwind(+) m/s
        decay = 0.04 * (1.0 + 0.2 * torch.tanh(self.decay_net(launch / torch.tensor([70.0, 15.0, 3000.0]))))
        carries, totals, apexes = [], [], []
        for b in range(launch.shape[0]):
            speed, angle, rpm = launch[b]
            rad = torch.deg2rad(angle)
            vel = speed * torch.stack([torch.cos(rad), torch.sin(rad)])
            pos = torch.zeros(2)
            pos, vel, apex, t = fly((pos, vel), rpm / 60.0, decay[b, 0], wind.reshape(()), self.dt, self.max_steps)
            if t < 0:
                # lost ball (simulation limit): report nothing
                carries.append(torch.zeros(()))
                totals.append(torch.zeros(()))
                apexes.append(apex)
                continue
            carry = pos[0]
            vx, vy = vel[0], -vel[1]
            x = carry
            bounces = 0
            while vy > 1.0 and bounces < 5:
                vy = vy * self.restitution
                vx = vx * 0.7
                x = x + vx * 2 * vy / G
                bounces += 1
            if vx > 0:
                x = x + vx * vx / (2 * self.rolling * G)
            carries.append(carry)
            totals.append(x)
            apexes.append(apex)
        return torch.stack(carries), torch.stack(totals), torch.stack(apexes)


def model():
    torch.manual_seed(48013)
    return BallFlight().eval()


def example_inputs():
    return torch.tensor([[70.0, 11.0, 2600.0], [50.0, 20.0, 7000.0], [30.0, 30.0, 9000.0]]), torch.tensor([0.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("shots", min=2, max=16)}, None)


def verify_inputs():
    return [
        example_inputs(),  # driver (bounces + roll), mid iron, wedge; both drag regimes
        (torch.tensor([[6.0, 5.0, 500.0], [72.0, 14.0, 2400.0]]), torch.tensor([-4.0])),  # chip: no bounce (vy<=1); into headwind
        (torch.tensor([[85.0, 70.0, 10000.0], [60.0, 12.0, 3000.0]]), torch.tensor([2.0])),  # near-vertical sky ball -> time limit (lost)
        (torch.tensor([[30.0, -10.0, 1000.0], [35.0, 89.0, 0.0]]), torch.tensor([-15.0])),  # topped: one flight step; pop-up blown back (vx < 0, no roll)
    ]
