"""Egress simulation for a fire-safety review of a corridor-type building.

Kind X.  Constructs: 1, 2, 3, 4, 5, 6, 7.
Zones form a chain; some zones have an exit of a given capacity (persons per
time step).  Each step, occupants of every zone head for the nearest exit
that is not smoke-logged (a helper scanning outwards with nested loops) and
either leave through it or move one zone towards it, while a learned smoke
model spreads the smoke.  The loop runs while anybody is left inside and
stops early when nobody can make progress any more (trapped occupants).
"""
import torch
import torch.nn as nn
from torch.export import Dim

ZONES = Dim("zones", min=2, max=32)


def nearest_exit(exit_cap, blocked, z):
    n = exit_cap.shape[0]
    for dist in range(n):
        for side in (-1, 1):
            j = z + side * dist
            if j < 0 or j >= n:
                continue
            if exit_cap[j] > 0.5 and not blocked[j]:
                return 0 if dist == 0 else side
    return None


class SmokeModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 1, 3, padding=1)

    def forward(self, smoke):
        left = torch.cat([smoke[:1], smoke[:-1]])
        right = torch.cat([smoke[1:], smoke[-1:]])
        spread = 0.2 * (0.5 * (left + right) - smoke)
        growth = 0.05 * (smoke > 0.3).float()
        learned = 0.01 * torch.tanh(self.conv(smoke[None, None])).squeeze(0).squeeze(0)
        return (smoke + spread + growth + learned).clamp(0.0, 1.0)


class EvacuationSim(nn.Module):
    def __init__(self, max_steps=60, untenable=0.8):
        super().__init__()
        self.smoke_model = SmokeModel()
        self.max_steps = max_steps
        self.untenable = untenable

    def forward(self, occupants, exit_cap, smoke):
        occ = occupants.clone()
        sm = smoke.clone()
        evacuated = torch.zeros(())
        curve = [evacuated]
        t = 0
        while occ.sum() > 0.5 and t < self.max_steps:
            blocked = sm > self.untenable
            new = occ.clone()
            progress = False
            for z in range(occ.shape[0]):
                if occ[z] < 0.5:
                    continue
                d = nearest_exit(exit_cap, blocked, z)
                if d is None:
                    continue                           # cut off: wait for the fire brigade
                if d == 0:
                    out = torch.minimum(occ[z], exit_cap[z])
                    new[z] = new[z] - out
                    evacuated = evacuated + out
                else:
                    new[z] = new[z] - occ[z]
                    new[z + d] = new[z + d] + occ[z]
                progress = True
            if not progress:
                break
            occ = new
            sm = self.smoke_model(sm)
            t += 1
            curve.append(evacuated)
        return evacuated, occ, torch.stack(curve)


def model():
    torch.manual_seed(63018)
    return EvacuationSim().eval()


def _building(occ, exits, smoke=None):
    occ = torch.tensor(occ, dtype=torch.float32)
    exits = torch.tensor(exits, dtype=torch.float32)
    smoke = torch.zeros_like(occ) if smoke is None else torch.tensor(smoke, dtype=torch.float32)
    return occ, exits, smoke


def example_inputs():
    return _building([5, 12, 0, 8, 20, 3, 0, 9], [4, 0, 0, 0, 0, 0, 0, 6])


def dynamic_shapes():
    return ({0: ZONES}, {0: ZONES}, {0: ZONES})


def verify_inputs():
    return [
        example_inputs(),                                            # two end exits, no smoke: everyone out
        _building([0, 0], [1, 0]),                                   # empty building: while runs 0 times
        _building([6, 4, 10, 2, 0, 7], [3, 0, 0, 0, 0, 2], smoke=[0.1, 0.2, 0.5, 0.6, 0.9, 0.95]),
        # ^ far exit smoke-logged: everyone reroutes to the exit in zone 0 (queueing there, d == 0)
        _building([3, 5, 4], [2, 0, 0], smoke=[0.95, 0.4, 0.2]),    # only exit blocked: trapped -> break
    ]
