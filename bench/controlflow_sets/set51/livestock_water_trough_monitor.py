"""Pasture water-trough monitor for a cattle station.

Readings per 15 minutes: float-valve water level (0..1), inflow (L/min),
water temperature (C).  Glitched readings (negative level) are skipped; the scan
stops at the first dry-trough alarm.  A small net turns each window into a
herd-drinking-demand estimate.
"""
import torch
import torch.nn as nn


class TroughMonitor(nn.Module):
    def __init__(self, dry_level=0.05, hot_water_c=30.0):
        super().__init__()
        self.dry_level = dry_level
        self.hot_water_c = hot_water_c
        self.demand = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, readings):
        rows = []
        prev_level = readings[0, 0].clamp(min=0.0)
        alarm = torch.zeros((), dtype=torch.long)
        for t in range(readings.shape[0]):
            level, inflow, temp = readings[t, 0], readings[t, 1], readings[t, 2]
            if level < 0 or temp > 60:
                # sensor glitch: skip this reading
                continue
            drop = prev_level - level
            hot = (temp > self.hot_water_c).float()
            rows.append(torch.stack([level, inflow, drop, hot]))
            prev_level = level
            if level < self.dry_level and inflow <= 0:
                # trough dry and float valve not refilling: pump or pipe failure
                alarm = torch.tensor(t + 1)
                break
        feats = torch.stack(rows)
        demand = self.demand(feats).squeeze(-1)
        return demand, alarm


def model():
    torch.manual_seed(5104)
    return TroughMonitor().eval()


def _day(n, seed, glitch_at=(), dry_at=None):
    g = torch.Generator().manual_seed(seed)
    level = 0.6 + 0.3 * torch.rand(n, generator=g)
    inflow = 2.0 + torch.rand(n, generator=g)
    temp = 18 + 8 * torch.rand(n, generator=g)
    for i in glitch_at:
        level[i] = -1.0
    if dry_at is not None:
        level[dry_at] = 0.01
        inflow[dry_at] = 0.0
    return torch.stack([level, inflow, temp], dim=1)


def example_inputs():
    return (_day(24, 1, glitch_at=(3, 7), dry_at=18),)


def dynamic_shapes():
    return ({0: torch.export.Dim("readings", min=2, max=384)},)


def verify_inputs():
    return [
        # example: skips two glitches (continue), hits dry alarm at 18 (break)
        example_inputs(),
        # min size: no glitch, no alarm, loop runs to the end
        (_day(2, 2),),
        # max size (4 days): glitches, no alarm
        (_day(384, 3, glitch_at=(10, 200, 383)),),
    ]
