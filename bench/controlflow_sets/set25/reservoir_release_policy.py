"""Daily release policy of a water-supply reservoir.

Each day the inflow is added to storage, a small learned forecaster looks at the
last three days of inflow, and a rule curve decides the release: spill above
the flood level, ration below the drought level, otherwise meet demand (with a
pre-emptive release when a big inflow is forecast while storage is high).
Returns the daily releases and the final storage.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class InflowForecaster(nn.Module):
    def __init__(self, window=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(window, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, recent):
        return recent.mean() * (1.0 + 0.5 * torch.tanh(self.net(recent))).squeeze(-1)


class ReservoirPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.forecaster = InflowForecaster()
        self.window = 3
        self.flood_level = 80.0
        self.drought_level = 25.0
        self.spill_gain = 0.5
        self.rationing = 0.6
        self.big_inflow = 12.0
        self.pre_release_level = 65.0

    def forward(self, inflow, demand, storage):
        releases = []
        for t in range(inflow.shape[0]):
            storage = storage + inflow[t]
            if storage > self.flood_level:
                release = demand[t] + self.spill_gain * (storage - self.flood_level)
            elif storage < self.drought_level:
                release = self.rationing * demand[t]
            else:
                release = demand[t]
                if t >= self.window:
                    forecast = self.forecaster(inflow[t - self.window:t])
                    if forecast > self.big_inflow and storage > self.pre_release_level:
                        release = release + 0.5 * (forecast - self.big_inflow)
            release = torch.minimum(release, storage)
            storage = storage - release
            releases.append(release)
        return torch.stack(releases), storage


def model():
    torch.manual_seed(0)
    return ReservoirPolicy().eval()


def _make(seed, days, inflow_mean, demand_mean, storage):
    g = torch.Generator().manual_seed(seed)
    inflow = inflow_mean * torch.rand(days, generator=g) * 2.0
    demand = demand_mean * (0.8 + 0.4 * torch.rand(days, generator=g))
    return inflow, demand, torch.tensor(storage)


def example_inputs():
    return _make(0, 10, 6.0, 6.0, 50.0)


def dynamic_shapes():
    days = Dim("days", min=2, max=60)
    return ({0: days}, {0: days}, None)


def verify_inputs():
    return [
        _make(1, 12, 6.0, 6.0, 50.0),     # normal operation
        _make(2, 20, 14.0, 5.0, 60.0),    # wet season: pre-release, then flood spill
        _make(3, 15, 2.0, 6.0, 35.0),     # dry season: rationing
        _make(4, 2, 5.0, 5.0, 85.0),      # two days, starts above flood level
        _make(5, 40, 7.0, 7.0, 55.0),
    ]
