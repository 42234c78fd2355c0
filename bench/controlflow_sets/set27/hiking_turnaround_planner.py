"""Turnaround planner for a day hike.

Follows the planned checkpoints in order (skipping GPS duplicates) and turns
back as soon as reaching the next checkpoint would leave less than the safety
reserve of daylight for the walk back to the trailhead. Leg times follow
Naismith's rule with a learned terrain/fatigue correction.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HikingTurnaroundPlanner(nn.Module):
    def __init__(self, flat_kmh=4.5, climb_km_per_h=0.6, reserve_h=0.75, min_leg_km=0.05):
        super().__init__()
        self.flat_kmh = flat_kmh
        self.climb_km_per_h = climb_km_per_h
        self.reserve_h = reserve_h
        self.min_leg_km = min_leg_km
        self.terrain = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def leg_time(self, a, b):
        delta = b - a
        dist = delta[:2].norm()
        ascent = delta[2].clamp(min=0.0)
        slope = delta / (delta.norm() + 1e-3)
        factor = 1.0 + 0.2 * F.softplus(self.terrain(slope)).squeeze(-1)
        return dist, (dist / self.flat_kmh + ascent / self.climb_km_per_h) * factor

    def forward(self, checkpoints, daylight_h, trailhead):
        # checkpoints: [N, 3] (x km, y km, elevation km); daylight_h: scalar; trailhead: [3]
        pos = trailhead
        remaining = daylight_h
        reached = [trailhead]
        for i in range(checkpoints.shape[0]):
            cp = checkpoints[i]
            dist, t_leg = self.leg_time(pos, cp)
            if dist < self.min_leg_km:
                continue  # duplicate GPS fix
            _, t_back = self.leg_time(cp, trailhead)
            if remaining - t_leg - t_back < self.reserve_h:
                break  # turn around here
            remaining = remaining - t_leg
            pos = cp
            reached.append(cp)
        _, t_back = self.leg_time(pos, trailhead)
        reached.append(trailhead)
        return torch.stack(reached), remaining - t_back


def model():
    torch.manual_seed(0)
    return HikingTurnaroundPlanner().eval()


def _trail(n, daylight, seed, duplicate_at=None, step_km=1.2):
    g = torch.Generator().manual_seed(seed)
    steps = torch.stack([
        step_km * (0.5 + torch.rand(n, generator=g)),
        step_km * (torch.rand(n, generator=g) - 0.5),
        0.15 * torch.rand(n, generator=g) - 0.03,
    ], dim=-1)
    cps = torch.cumsum(steps, 0) + torch.tensor([0.0, 0.0, 1.2])
    if duplicate_at is not None:
        cps[duplicate_at] = cps[duplicate_at - 1]
    return cps, torch.tensor(daylight), torch.tensor([0.0, 0.0, 1.2])


def example_inputs():
    return _trail(6, 9.0, 0)


def dynamic_shapes():
    N = torch.export.Dim("checkpoints", min=2, max=64)
    return ({0: N}, None, None)


def verify_inputs():
    return [
        _trail(6, 12.0, 1, duplicate_at=3),  # long summer day, one duplicate fix
        _trail(10, 6.0, 2),                  # turns around halfway
        _trail(4, 0.9, 3),                   # late start: turns back before the first checkpoint
        _trail(3, 8.0, 4, step_km=0.6),      # short loop, completed
    ]
