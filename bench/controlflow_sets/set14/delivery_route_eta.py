"""Delivery route ETA: a GRU rolls over the remaining stops of a courier route (dynamic
number of stops) and predicts per-leg travel minutes; a congestion rule adjusts the total."""

import torch
from torch import nn
import torch.nn.functional as F

HIDDEN = 32


class DeliveryETA(nn.Module):
    def __init__(self, use_traffic: bool = True):
        super().__init__()
        self.use_traffic = use_traffic
        self.stop_enc = nn.Linear(6, HIDDEN)
        self.traffic_enc = nn.Linear(4, HIDDEN)
        self.cell = nn.GRUCell(HIDDEN, HIDDEN)
        self.leg_head = nn.Linear(HIDDEN, 1)
        self.service_head = nn.Linear(HIDDEN, 1)

    def forward(self, stops: torch.Tensor, traffic: torch.Tensor):
        # stops: (B, S, 6) = lat/lon deltas, parcel count, floor, time window start/end
        # traffic: (B, 4) = congestion index, rain, weekday, hour (normalised)
        B = stops.shape[0]
        h = torch.zeros(B, HIDDEN)
        if self.use_traffic:  # static
            h = torch.tanh(self.traffic_enc(traffic))
        legs = []
        for i in range(stops.shape[1]):
            h = self.cell(torch.relu(self.stop_enc(stops[:, i])), h)
            drive = F.softplus(self.leg_head(h)).squeeze(-1)
            service = F.softplus(self.service_head(h)).squeeze(-1) * stops[:, i, 2].clamp_min(1.0)
            legs.append(drive + service)
        legs = torch.stack(legs, dim=1)
        total = legs.sum(dim=1)
        congestion = traffic[:, 0].mean()
        if congestion > 0.7:
            # rush hour: multiplicative slow-down plus parking search
            total = total * 1.25 + 5.0
        elif congestion < 0.2:
            total = total * 0.9
        arrival = torch.cumsum(legs, dim=1)
        return total, arrival


def model() -> nn.Module:
    torch.manual_seed(0)
    return DeliveryETA().eval()


def _inputs(n_stops: int, congestion: float, seed: int):
    g = torch.Generator().manual_seed(seed)
    stops = torch.randn(2, n_stops, 6, generator=g)
    stops[:, :, 2] = torch.randint(1, 4, (2, n_stops), generator=g).float()
    traffic = torch.rand(2, 4, generator=g)
    traffic[:, 0] = congestion
    return stops, traffic


def example_inputs() -> tuple:
    return _inputs(5, 0.5, 0)


def dynamic_shapes():
    return ({1: torch.export.Dim("stops", min=2, max=32)}, None)


def verify_inputs() -> list:
    return [
        _inputs(3, 0.9, 1),    # rush hour
        _inputs(12, 0.1, 2),   # empty roads
        _inputs(2, 0.45, 3),   # normal traffic, shortest route
        _inputs(32, 0.8, 4),   # max stops, rush hour
    ]
