"""Data-center chilled-water plant: decide how many chillers to stage for the
coming hours and estimate the plant power.

Each chiller has a nameplate capacity and a learned part-load efficiency
curve (kW per kW of cooling as a function of load fraction and wet-bulb).
Chillers are brought on in the configured lead/lag order until the staged
capacity covers the forecast peak plus a redundancy margin.  Hot wet-bulb
conditions derate capacity because of the higher condenser lift.
"""
import torch
import torch.nn as nn


class Chiller(nn.Module):
    def __init__(self, capacity_kw):
        super().__init__()
        self.capacity_kw = capacity_kw
        self.curve = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, load_frac, wet_bulb):
        x = torch.stack([load_frac, (wet_bulb - 20.0) / 10.0], dim=-1)
        # kW electric per kW cooling, roughly 0.12 .. 0.28
        return 0.2 + 0.08 * torch.tanh(self.curve(x)).squeeze(-1)


class ChillerStaging(nn.Module):
    def __init__(self, capacities=(1500.0, 1500.0, 1000.0, 1000.0), lead_order=(2, 0, 1, 3),
                 margin=0.15):
        super().__init__()
        self.chillers = nn.ModuleList([Chiller(c) for c in capacities])
        self.lead_order = list(lead_order)
        self.margin = margin
        self.planning_window = 48      # 12 h of 15-minute intervals

    def forward(self, it_load, wet_bulb):
        if it_load.shape[0] > self.planning_window:
            # far forecast is too uncertain: stage for the next 12 h only
            it_load = it_load[: self.planning_window]
            wet_bulb = wet_bulb[: self.planning_window]

        derate = 0.9 if wet_bulb.max() > 24.0 else 1.0
        required = it_load.max() * (1.0 + self.margin)

        staged = []
        capacity = torch.zeros(())
        for idx in self.lead_order:
            if capacity >= required:
                break
            staged.append(self.chillers[idx])
            capacity = capacity + self.chillers[idx].capacity_kw * derate

        load_frac = (it_load / capacity).clamp(max=1.0)
        power = torch.zeros_like(it_load)
        for chiller in staged:
            share = chiller.capacity_kw * derate / capacity
            power = power + share * it_load * chiller(load_frac, wet_bulb)
        return torch.tensor(len(staged)), capacity, power


def model():
    torch.manual_seed(509)
    return ChillerStaging().eval()


def _forecast(n, peak_kw, wet_bulb_peak, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    daily = 0.5 * (1 - torch.cos(2 * torch.pi * t / 96.0))
    load = peak_kw * (0.8 + 0.2 * daily) + 10.0 * torch.randn(n, generator=g)
    wb = wet_bulb_peak - 6.0 + 6.0 * daily
    return load, wb


def example_inputs():
    return _forecast(24, 1800.0, 18.0, seed=1)


def dynamic_shapes():
    h = torch.export.Dim("intervals", min=4, max=96)
    return ({0: h}, {0: h})


def verify_inputs():
    return [
        example_inputs(),                        # mild day, two chillers staged
        _forecast(4, 600.0, 15.0, seed=2),       # light load: one chiller, staging loop breaks on the 2nd pass
        _forecast(96, 3600.0, 27.0, seed=3),     # 24 h forecast truncated, hot -> derated, all four (loop runs out)
        _forecast(60, 2600.0, 26.0, seed=4),     # truncated window, derated, three chillers
    ]
