"""Bike sharing: plan overnight truck trips that move bikes from over-full to empty docking stations.

Targets come from a learned demand model; each trip is a pickup loop then a drop-off loop, both with
tensor conditions and early exits, inside a fixed number of truck trips.
Kind X. Constructs: 1, 3, 4, 6, 9.
"""
import torch
import torch.nn as nn


class DemandTarget(nn.Module):
    """Target fill ratio for tomorrow morning from [commuter share, rain forecast, event nearby]."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        return 0.3 + 0.4 * torch.sigmoid(self.net(feats)).squeeze(-1)


class Rebalancer(nn.Module):
    def __init__(self, truck_cap=12.0, max_trips=3, tol=2.0):
        super().__init__()
        self.truck_cap = truck_cap
        self.max_trips = max_trips
        self.tol = tol
        self.target = DemandTarget()

    def forward(self, bikes, docks, feats):
        target = docks * self.target(feats)
        surplus = bikes - target
        moved = torch.zeros_like(bikes)
        trips = torch.zeros_like(bikes[0])
        for _ in range(self.max_trips):
            if not (surplus.abs() > self.tol).any():
                break  # network already balanced
            load = torch.zeros_like(bikes[0])
            # pickup: visit the fullest stations until the truck is full
            while load < self.truck_cap:
                src = surplus.argmax()
                if surplus[src] < 1.0:
                    break
                take = torch.minimum(torch.floor(surplus[src]), self.truck_cap - load)
                surplus[src] -= take
                moved[src] -= take
                load = load + take
            if load < 0.5:
                break  # nothing worth picking up
            # drop-off: emptiest stations first
            while load > 0.5:
                dst = surplus.argmin()
                if surplus[dst] > -1.0:
                    break  # nobody needs bikes: the rest rides back to the depot
                give = torch.minimum(torch.floor(-surplus[dst]), load)
                surplus[dst] += give
                moved[dst] += give
                load = load - give
            trips = trips + 1
        return bikes + moved, moved, trips


def model():
    torch.manual_seed(36018)
    return Rebalancer().eval()


def _city(seed, n, skew):
    g = torch.Generator().manual_seed(seed)
    docks = torch.randint(15, 31, (n,), generator=g).float()
    ratio = (0.5 + skew * (torch.rand(n, generator=g) - 0.5)).clamp(0.0, 1.0)
    bikes = torch.round(docks * ratio)
    feats = torch.rand(n, 3, generator=g)
    return bikes, docks, feats


def example_inputs():
    # 10 stations, strongly unbalanced after the evening rush
    return _city(1, 10, 1.8)


def dynamic_shapes():
    stations = torch.export.Dim("stations", min=2, max=256)
    return ({0: stations}, {0: stations}, {0: stations})


def verify_inputs():
    return [
        example_inputs(),          # several trips, truck fills up, drop-offs run dry
        _city(2, 6, 0.1),          # nearly balanced -> first check breaks immediately
        _city(3, 24, 1.2),         # big network: all 3 trips used
        _city(4, 4, 0.6),          # small network
    ]
