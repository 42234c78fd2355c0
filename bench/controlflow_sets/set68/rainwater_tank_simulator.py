"""Rainwater-harvesting tank water balance (civil / building services).

Daily roof runoff (after a first-flush diverter) fills a storage tank that
serves a daily demand.  The tank spills when full and runs dry when demand
exceeds storage.  Long horizons are aggregated to weekly steps first.
"""
import torch
import torch.nn as nn


class RainTankSimulator(nn.Module):
    def __init__(self, runoff_coeff=0.8, first_flush_mm=1.0, weekly_after_days=120):
        super().__init__()
        self.runoff_coeff = runoff_coeff
        self.first_flush_mm = first_flush_mm
        self.weekly_after_days = weekly_after_days

    def forward(self, rain_mm, demand_l, params):
        # params = [roof area m2, tank capacity l, initial volume l]
        area, capacity, level = params[0], params[1], params[2]
        flush = self.first_flush_mm
        if rain_mm.shape[0] > self.weekly_after_days:
            weeks = rain_mm.shape[0] // 7
            rain_mm = rain_mm[: weeks * 7].reshape(weeks, 7).sum(1)
            demand_l = demand_l[: weeks * 7].reshape(weeks, 7).sum(1)
            flush = 7 * flush
        levels, spills, deficits = [], [], []
        for d in range(rain_mm.shape[0]):
            inflow = torch.clamp(rain_mm[d] - flush, min=0.0) * area * self.runoff_coeff
            level = level + inflow - demand_l[d]
            spill = torch.zeros(())
            short = torch.zeros(())
            if level > capacity:
                spill = level - capacity
                level = capacity
            elif level < 0:
                short = -level
                level = torch.zeros(())
            levels.append(level)
            spills.append(spill)
            deficits.append(short)
        deficits = torch.stack(deficits)
        reliability = (deficits == 0).float().mean()
        return torch.stack(levels), torch.stack(spills).sum(), deficits.sum(), reliability


def model():
    torch.manual_seed(303)
    return RainTankSimulator().eval()


def _rain(seed, days, wet_prob=0.35, scale=12.0):
    g = torch.Generator().manual_seed(seed)
    wet = torch.rand(days, generator=g) < wet_prob
    amount = torch.rand(days, generator=g) * scale + 0.5
    return torch.where(wet, amount, torch.zeros(days))


def example_inputs():
    rain = _rain(11, 30)
    demand = torch.full((30,), 200.0)
    return rain, demand, torch.tensor([150.0, 1500.0, 1000.0])


def dynamic_shapes():
    d = torch.export.Dim("days", min=2, max=400)
    return ({0: d}, {0: d}, None)


def verify_inputs():
    return [
        # example: a month, small tank: fills, spills and (briefly) runs dry
        example_inputs(),
        # two dry days, half-full tank: neither spill nor shortage
        (torch.tensor([0.0, 0.2]), torch.tensor([100.0, 120.0]), torch.tensor([80.0, 5000.0, 2000.0])),
        # two very wet days into an almost full tank: spill on both days
        (torch.tensor([30.0, 25.0]), torch.tensor([50.0, 50.0]), torch.tensor([200.0, 2000.0, 1900.0])),
        # a year of data -> weekly aggregation branch, undersized tank (spills and shortages)
        (_rain(12, 365), torch.full((365,), 180.0), torch.tensor([150.0, 4000.0, 500.0])),
        # exactly the aggregation threshold (120 days): stays daily, big tank never spills
        (_rain(13, 120, wet_prob=0.2), torch.full((120,), 90.0), torch.tensor([60.0, 50000.0, 800.0])),
    ]
