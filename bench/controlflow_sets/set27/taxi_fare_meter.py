"""Taxi meter: fare from GPS trip segments.

Each segment is billed by time when the cab crawls in traffic and by distance
otherwise. A small network converts the open-request / idle-driver ratio into
a surge multiplier when demand is high; short trips pay the minimum fare.
"""
import torch
import torch.nn as nn


def segment_charge(dist_km, dur_min, per_km, per_min, slow_kmh):
    speed = dist_km / (dur_min / 60.0)
    if speed < slow_kmh:
        return dur_min * per_min
    return dist_km * per_km


class TaxiFareMeter(nn.Module):
    def __init__(self, night_tariff=False, base_fare=3.0, per_km=1.8, per_min=0.45,
                 slow_kmh=12.0, min_fare=7.5, surge_ratio=1.5):
        super().__init__()
        self.night_tariff = night_tariff
        self.base_fare = base_fare
        self.per_km = per_km
        self.per_min = per_min
        self.slow_kmh = slow_kmh
        self.min_fare = min_fare
        self.surge_ratio = surge_ratio
        self.surge_net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, segments, demand):
        # segments: [S, 2] (km, minutes); demand: [2] (open requests, idle drivers)
        fare = torch.tensor(self.base_fare)
        for i in range(segments.shape[0]):
            fare = fare + segment_charge(segments[i, 0], segments[i, 1], self.per_km,
                                         self.per_min, self.slow_kmh)
        if self.night_tariff:
            fare = fare * 1.25
        ratio = demand[0] / demand[1].clamp(min=1.0)
        surge = (1.0 + 0.5 * torch.sigmoid(self.surge_net(torch.log1p(demand))).squeeze(-1)
                 if ratio > self.surge_ratio else torch.ones(()))
        fare = fare * surge
        if fare < self.min_fare:
            return torch.full((), self.min_fare), surge
        return fare, surge


def model():
    torch.manual_seed(0)
    return TaxiFareMeter().eval()


def _trip(n, traffic_every, demand, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    dist = scale * (0.3 + 1.2 * torch.rand(n, generator=g))
    speed = 25.0 + 30.0 * torch.rand(n, generator=g)        # free flow km/h
    if traffic_every:
        jam = torch.arange(n) % traffic_every == 0
        speed = torch.where(jam, 3.0 + 5.0 * torch.rand(n, generator=g), speed)
    minutes = dist / speed * 60.0
    return torch.stack([dist, minutes], dim=-1), torch.tensor(demand)


def example_inputs():
    return _trip(5, 2, [12.0, 10.0], 0)


def dynamic_shapes():
    S = torch.export.Dim("segments", min=2, max=200)
    return ({0: S}, None)


def verify_inputs():
    return [
        _trip(8, 3, [30.0, 10.0], 1),             # rush hour: jams and surge
        _trip(6, 0, [5.0, 12.0], 2),              # free flowing, quiet
        _trip(2, 0, [4.0, 9.0], 3, scale=0.5),    # very short hop: minimum fare
    ]
