"""Sailing route planner for a racing-yacht navigation app: visits the course
marks in order; a mark that can be fetched is sailed to directly, otherwise
the boat beats upwind in close-hauled tacks (favoured tack first, legs
shrinking as the mark gets closer) until the mark becomes fetchable. Boat
speed comes from a polar model (analytic polar with a learned per-boat
correction, light-air and reefing regimes). Gives up after too many tacks.

Inputs: marks [M, 2] (x east, y north, nautical miles; row 0 = start), wind [2]
(direction the wind blows from in radians, true wind speed in knots).
Outputs: track [K, 2], elapsed hours [1], gave-up flag [1].
"""
import math

import torch
import torch.nn as nn


def wrap_angle(a):
    return torch.remainder(a + math.pi, 2 * math.pi) - math.pi


class PolarModel(nn.Module):
    def __init__(self, light_air=4.0, reef_above=22.0):
        super().__init__()
        self.light_air = light_air
        self.reef_above = reef_above
        self.correction = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, twa, tws):
        a = twa.abs()
        base = tws * (0.45 + 0.25 * torch.sin(a)) * (1.0 - 0.3 * torch.cos(a) ** 2)
        if tws < self.light_air:
            base = 0.3 * tws + 0.2
        elif tws > self.reef_above:
            base = torch.clamp(base, max=0.45 * self.reef_above)
        corr = 0.1 * torch.tanh(self.correction(torch.stack([a, tws / 20.0]))).squeeze(-1)
        return base * (1.0 + corr)


class TackPlanner(nn.Module):
    def __init__(self, no_go=math.radians(45.0), arrive_nm=0.02, max_leg=1.5, min_leg=0.1, max_tacks=12):
        super().__init__()
        self.no_go = no_go
        self.arrive_nm = arrive_nm
        self.max_leg = max_leg
        self.min_leg = min_leg
        self.max_tacks = max_tacks
        self.polar = PolarModel()

    def forward(self, marks, wind):
        wind_dir, tws = wind[0], wind[1]
        pos = marks[0]
        track = [pos]
        hours = torch.zeros(())
        tacks = 0
        for m in range(1, marks.shape[0]):
            target = marks[m]
            dist = (target - pos).norm()
            while dist > self.arrive_nm:
                delta = target - pos
                bearing = torch.atan2(delta[0], delta[1])
                twa = wrap_angle(bearing - wind_dir)
                if twa.abs() >= self.no_go or dist < self.min_leg:
                    # mark is fetchable (or close enough to pinch up to it): sail straight to it
                    hours = hours + dist / self.polar(twa, tws)
                    pos = target
                    track.append(pos)
                    break
                if tacks >= self.max_tacks:
                    return torch.stack(track), hours.reshape(1), torch.ones(1)
                side = 1.0 if twa > 0 else -1.0
                heading = wind_dir + side * self.no_go
                leg = torch.clamp(0.6 * dist, min=self.min_leg, max=self.max_leg)
                pos = pos + leg * torch.stack([torch.sin(heading), torch.cos(heading)])
                hours = hours + leg / self.polar(torch.full_like(twa, side * self.no_go), tws)
                track.append(pos)
                tacks += 1
                dist = (target - pos).norm()
        return torch.stack(track), hours.reshape(1), torch.zeros(1)


def model():
    torch.manual_seed(20)
    return TackPlanner().eval()


def _course(points, wind_from_deg, tws):
    return torch.tensor(points, dtype=torch.float32), torch.tensor([math.radians(wind_from_deg), tws])


def example_inputs():
    # windward-leeward race: beat to a windward mark 2 nm north, run back, reach to the finish
    return _course([[0.0, 0.0], [0.3, 2.0], [0.0, 0.1], [0.8, 0.4]], 10.0, 12.0)


def dynamic_shapes():
    return ({0: torch.export.Dim("marks", min=2, max=24)}, None)


def verify_inputs():
    return [
        example_inputs(),  # beat with several tacks (both sides), then fetchable legs; medium wind
        _course([[0.0, 0.0], [1.0, 0.2], [2.0, -0.5]], 0.0, 3.0),  # reaches only, light air polar branch
        _course([[0.0, 0.0], [-0.2, 1.2], [0.5, 1.1]], 350.0, 28.0),  # beat in a gale: reefed polar
        _course([[0.0, 0.0], [0.4, 30.0]], 0.0, 14.0),  # very long beat: runs out of tacks -> gives up early
        _course([[0.0, 0.0], [0.0, 0.01], [1.0, 0.3]], 90.0, 10.0),  # first mark already within arrival radius (no loop); then a beat
    ]
