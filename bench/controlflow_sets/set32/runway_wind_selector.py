"""Active-runway recommendation from the last minutes of airport wind data.

Kind T. Constructs: 1, 2, 3, 5, 6, 7.
One-minute wind observations (direction in degrees true, speed in knots)
are vector-averaged and nudged by a small learned short-term nowcast.
For every runway end the headwind and crosswind components are computed
(using the gust when the wind is gusty); closed runways and runways
beyond the crosswind / tailwind limits are ruled out.  Calm wind selects
the calm-wind preferential runway.  Output: per-runway scores and the
chosen runway index (-1: no runway usable, consult the supervisor).
"""
import math

import torch
import torch.nn as nn


def wind_components(wind_from_deg, speed_kt, runway_heading_deg):
    angle = torch.deg2rad(wind_from_deg - runway_heading_deg)
    return speed_kt * torch.cos(angle), speed_kt * torch.sin(angle)  # headwind, crosswind


def mean_wind(direction_deg, speed_kt):
    rad = torch.deg2rad(direction_deg)
    u = (speed_kt * torch.sin(rad)).mean()
    v = (speed_kt * torch.cos(rad)).mean()
    return torch.rad2deg(torch.atan2(u, v)) % 360.0, torch.sqrt(u * u + v * v)


class RunwaySelector(nn.Module):
    def __init__(self, max_crosswind=20.0, max_tailwind=5.0, calm_kt=3.0, gust_spread_kt=10.0, preferred=0):
        super().__init__()
        self.max_crosswind, self.max_tailwind = max_crosswind, max_tailwind
        self.calm_kt, self.gust_spread_kt, self.preferred = calm_kt, gust_spread_kt, preferred
        self.nowcast = nn.Linear(4, 2)
        with torch.no_grad():
            self.nowcast.weight.mul_(0.1)
            self.nowcast.bias.zero_()

    def forward(self, wind_dir, wind_speed, runway_heading, runway_open):
        direction, speed = mean_wind(wind_dir, wind_speed)
        trend = torch.stack([wind_speed[-1] - wind_speed[0], wind_speed.std(),
                             torch.sin(torch.deg2rad(direction)), torch.cos(torch.deg2rad(direction))])
        d_dir, d_speed = self.nowcast(trend).unbind()
        direction = direction + 5.0 * torch.tanh(d_dir)
        speed = (speed + torch.tanh(d_speed)).clamp(min=0.0)

        gust = wind_speed.max()
        design_speed = gust if gust - speed > self.gust_spread_kt else speed
        if design_speed < self.calm_kt:
            scores = torch.zeros(runway_heading.shape[0])
            return scores, torch.tensor(self.preferred)

        scores = []
        for r in range(runway_heading.shape[0]):
            if not runway_open[r]:
                scores.append(torch.full((), -100.0))
                continue
            head, cross = wind_components(direction, design_speed, runway_heading[r])
            if cross.abs() > self.max_crosswind or head < -self.max_tailwind:
                scores.append(torch.full((), -50.0))
                continue
            scores.append(head - 0.5 * cross.abs())
        scores = torch.stack(scores)
        if (scores < -10.0).all():
            return scores, torch.tensor(-1)
        return scores, torch.argmax(scores)


def model():
    torch.manual_seed(3221)
    return RunwaySelector().eval()


# runway ends: 09, 27, 18, 36, 14 (headings in degrees)
HEADINGS = [90.0, 270.0, 180.0, 360.0, 140.0]


def _obs(seed, n, direction, speed, dir_spread=8.0, speed_spread=2.0, gust_at=None, gust=0.0,
         headings=HEADINGS, open_mask=None):
    g = torch.Generator().manual_seed(seed)
    d = (direction + dir_spread * torch.randn(n, generator=g)) % 360.0
    s = (speed + speed_spread * torch.randn(n, generator=g)).clamp(min=0.0)
    if gust_at is not None:
        s[gust_at] = gust
    rw = torch.tensor(headings)
    is_open = torch.ones(len(headings), dtype=torch.bool) if open_mask is None else torch.tensor(open_mask)
    return d, s, rw, is_open


def example_inputs():
    # steady westerly 14 kt, all runways open -> runway 27
    return _obs(1, 10, 265.0, 14.0)


def dynamic_shapes():
    t = torch.export.Dim("minutes", min=2, max=60)
    r = torch.export.Dim("runway_ends", min=2, max=16)
    return ({0: t}, {0: t}, {0: r}, {0: r})


def verify_inputs():
    return [
        example_inputs(),                                           # three usable ends, two ruled out by the tailwind limit
        _obs(2, 10, 30.0, 1.0, dir_spread=60.0, speed_spread=0.3),  # calm -> preferential runway, early return
        _obs(3, 20, 130.0, 18.0, gust_at=7, gust=41.0),             # gusty: gust is the design wind, crosswind rules out all but 14
        _obs(4, 6, 100.0, 12.0, open_mask=[False, True, True, True, True]),  # 09 closed (continue), 14 wins
        _obs(5, 8, 225.0, 38.0, headings=[90.0, 270.0, 360.0],      # storm: crosswind or tailwind limit on every end
             open_mask=[True, True, False]),                        # -> no runway usable (-1)
        _obs(6, 2, 350.0, 9.0, headings=[360.0, 180.0]),            # two-minute window, two ends: 36 wins
    ]
