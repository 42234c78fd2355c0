"""Skydiving automatic activation device (AAD): a jump state machine
(ground -> climb -> freefall -> canopy) over barometric altitude samples, which
fires the reserve cutter when still in freefall below the activation altitude.
A small learned head rates sensor trust from the accelerometer.

Kind X. Constructs: 1, 2, 3, 5, 6.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

GROUND, CLIMB, FREEFALL, CANOPY = 0, 1, 2, 3


class AAD(nn.Module):
    def __init__(self, dt=1.0, fire_altitude=225.0, fire_speed=35.0):
        super().__init__()
        self.dt = dt
        self.fire_altitude = fire_altitude
        self.fire_speed = fire_speed
        self.trust = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, altitude, accel):
        # altitude: [T] metres above the drop zone, accel: [T, 3] m/s^2
        alt = F.avg_pool1d(F.pad(altitude.view(1, 1, -1), (1, 1), mode="replicate"), 3, stride=1).view(-1)
        speed = torch.zeros_like(alt)
        speed[1:] = (alt[1:] - alt[:-1]) / self.dt  # positive = going up

        state = GROUND
        fired_at = torch.full((), -1.0)
        visited = torch.zeros(4)
        for t in range(1, alt.shape[0]):
            h, v = alt[t], speed[t]
            if state == GROUND:
                if h > 300.0:
                    state = CLIMB
            elif state == CLIMB:
                if v < -self.fire_speed and h > 1000.0:
                    state = FREEFALL  # exit from the aircraft
                elif h < 100.0:
                    state = GROUND  # aircraft landed with us on board
            elif state == FREEFALL:
                if v > -20.0:
                    state = CANOPY
                elif h < self.fire_altitude and v < -self.fire_speed:
                    fired_at = torch.tensor(float(t))
                    visited[state] = 1.0
                    trust = torch.sigmoid(self.trust(accel[: t + 1].abs().mean(0)))
                    return torch.ones(()), fired_at, visited, trust.squeeze()
            else:
                if h < 5.0:
                    visited[state] = 1.0
                    break  # landed under canopy
            visited[state] = 1.0
        trust = torch.sigmoid(self.trust(accel.abs().mean(0)))
        return torch.zeros(()), fired_at, visited, trust.squeeze()


def model():
    torch.manual_seed(11)
    return AAD().eval()


def _profile(segments, seed):
    """segments: list of (rate m/s, seconds). Returns altitude and accel."""
    g = torch.Generator().manual_seed(seed)
    alt = [0.0]
    for rate, secs in segments:
        for _ in range(secs):
            alt.append(max(alt[-1] + rate, 0.0))
    altitude = torch.tensor(alt) + 0.3 * torch.randn(len(alt), generator=g)
    accel = torch.tensor([0.0, 0.0, 9.81]) + 0.5 * torch.randn(len(alt), 3, generator=g)
    return altitude, accel


def example_inputs():
    # ride up to 3000 m, 40 s freefall, open at ~1000 m, fly down and land, sit on ground
    return _profile([(0.0, 5), (15.0, 200), (-50.0, 40), (-5.0, 199), (0.0, 10)], 0)


def dynamic_shapes():
    t = Dim("samples", min=8, max=1024)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),  # full jump: every state, canopy landing -> break
        _profile([(0.0, 3), (15.0, 200), (-50.0, 57), (0.0, 5)], 1),  # no canopy, still falling at 200 m -> cutter fires (return in loop)
        _profile([(0.0, 3), (12.0, 60), (0.0, 20), (-12.0, 60), (0.0, 10)], 2),  # climb to 720 m then aircraft lands -> back to GROUND
        _profile([(0.0, 4), (15.0, 100), (-50.0, 10), (-5.0, 100)], 3),  # low hop-and-pop at 1500 m, ends in the air (no break)
        _profile([(0.0, 3), (20.0, 4)], 4),  # 8 samples: never leaves GROUND
    ]
