"""Ro-Ro ferry loading: automatic anti-heel ballast correction.

While vehicles are loaded, the loading computer evaluates the heel angle from
the transverse moments of the cargo (mass, transverse position) and of the
ballast tanks (fill fraction x capacity, transverse position). The metacentric
height GM comes from a hydrostatic table with a learned loading correction.
A heel beyond the safety limit stops loading immediately. Otherwise ballast
water is taken into tanks on the high side, one tank per iteration in tank-table
order (skipping full tanks and tanks on the wrong side), until the ship is
upright within tolerance, no tank can help, or the iteration budget is spent.
Returns the new tank fills, the final heel (deg) and a status
(0 upright, 1 residual heel, 2 loading stopped).

Kind: X. Constructs: 1, 2, 3, 4, 5, 6, 7.
"""
import math

import torch
from torch import nn
from torch.export import Dim

UPRIGHT, RESIDUAL_HEEL, STOP_LOADING = 0, 1, 2
TANK_CAPACITY_T = 120.0
LIGHTSHIP_T = 8000.0


class MetacentricHeight(nn.Module):
    def __init__(self, gm_lightship=2.5):
        super().__init__()
        self.gm_lightship = gm_lightship
        self.correction = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, displacement, cargo_mass, cargo_vcg):
        feats = torch.stack([displacement / 10000.0, cargo_mass / 1000.0, cargo_vcg / 10.0])
        return self.gm_lightship * (1.0 + 0.1 * torch.tanh(self.correction(feats))[0])


def transverse_moment(cargo, tanks, tank_y):
    return (cargo[:, 0] * cargo[:, 1]).sum() + (tanks * TANK_CAPACITY_T * tank_y).sum()


def heel_angle(gm_model, cargo, tanks, tank_y):
    cargo_mass = cargo[:, 0].sum()
    displacement = LIGHTSHIP_T + cargo_mass + (tanks * TANK_CAPACITY_T).sum()
    vcg = (cargo[:, 0] * cargo[:, 2]).sum() / cargo_mass.clamp(min=1.0)
    gm = gm_model(displacement, cargo_mass, vcg)
    moment = transverse_moment(cargo, tanks, tank_y)
    return torch.rad2deg(torch.atan(moment / (displacement * gm))), moment


class HeelCorrector(nn.Module):
    def __init__(self, tolerance_deg=0.3, stop_deg=8.0, max_iter=6, full=0.98):
        super().__init__()
        self.gm = MetacentricHeight()
        self.tolerance = tolerance_deg
        self.stop = stop_deg
        self.max_iter = max_iter
        self.full = full

    def forward(self, cargo, tanks, tank_y):
        tanks = tanks.clone()
        heel, moment = heel_angle(self.gm, cargo, tanks, tank_y)
        if heel.abs() > self.stop:
            return tanks, heel.reshape(1), torch.tensor(STOP_LOADING)
        it = 0
        while heel.abs() > self.tolerance and it < self.max_iter:
            moved = False
            for k in range(tanks.shape[0]):
                if (heel > 0 and tank_y[k] > 0) or (heel < 0 and tank_y[k] < 0):
                    continue  # this tank is on the low side
                if tanks[k] > self.full - 0.01:
                    continue  # (practically) full
                needed = (-moment / (TANK_CAPACITY_T * tank_y[k])).clamp(min=0.0)
                tanks[k] = tanks[k] + torch.minimum(needed, self.full - tanks[k])
                moved = True
                break
            if not moved:
                break
            heel, moment = heel_angle(self.gm, cargo, tanks, tank_y)
            it += 1
        status = UPRIGHT if heel.abs() <= self.tolerance else RESIDUAL_HEEL
        return tanks, heel.reshape(1), torch.tensor(status)


def model():
    torch.manual_seed(4220)
    return HeelCorrector().eval()


def _cargo(masses, ys, seed):
    """Vehicles: (mass t, transverse position m, height of centre of gravity m)."""
    g = torch.Generator().manual_seed(seed)
    n = len(masses)
    return torch.stack([torch.tensor(masses), torch.tensor(ys), 6.0 + 0.5 * torch.rand(n, generator=g)], 1)


# tank table: (transverse position m); port negative, starboard positive
TANK_Y = [-7.5, 7.4, -5.0, 5.1, -2.5, 2.6]


def example_inputs():
    cargo = _cargo([38.0, 40.0, 12.0, 25.0, 30.0], [4.0, 5.5, -2.0, 6.0, 3.5], seed=0)
    return cargo, torch.tensor([0.2, 0.2, 0.5, 0.5, 0.1, 0.1]), torch.tensor(TANK_Y)


def dynamic_shapes():
    tanks = Dim("tanks", min=2, max=16)
    return ({0: Dim("vehicles", min=2, max=400)}, {0: tanks}, {0: tanks})


def verify_inputs():
    tanks_y = torch.tensor(TANK_Y)
    return [
        example_inputs(),      # starboard heel: outboard port tank takes water, upright after one iteration
        (_cargo([20.0, 20.0], [3.0, -3.0], seed=1), torch.tensor([0.3] * 6), tanks_y),  # already upright
        (_cargo([40.0] * 16, [6.0] * 16, seed=2), torch.tensor([0.0] * 6), tanks_y),    # ~10 deg: stop loading
        # port heel; outboard starboard tank full (skipped), the next one is topped up, then the inner one
        # finishes the job: two iterations
        (_cargo([40.0] * 5, [-6.5, -6.6, -6.5, -6.6, -6.7], seed=3),
         torch.tensor([0.2, 0.98, 0.2, 0.48, 0.2, 0.2]), tanks_y),
        # port heel but every starboard tank is full -> no tank can help, residual heel
        (_cargo([40.0] * 6, [-8.0, -8.0, -8.1, -8.0, -8.2, -7.9], seed=4),
         torch.tensor([0.2, 0.99, 0.2, 0.985, 0.2, 0.99]), tanks_y),
        # starboard heel, port tanks all nearly full: each iteration gains little -> iteration budget runs out
        (_cargo([40.0] * 22, [6.0] * 22, seed=5), torch.tensor([0.95, 0.0] * 7),
         torch.tensor([-7.5, 7.4, -7.0, 6.9, -6.5, 6.4, -6.0, 5.9, -5.5, 5.4, -5.0, 4.9, -4.5, 4.4])),
    ]
