"""Parametric earthquake catastrophe bond: payout from a seismic index.

After an event the calculation agent receives the magnitude / epicentre and the
strong-motion records of the stations in the covered region.  The event only
qualifies if it is inside the covered box and above the minimum magnitude.
Only the 32 closest stations count in a dense network.  A small network turns
station metadata into reliability weights, the index is the weighted peak
ground acceleration, and the payout is linear between the attachment and
exhaustion points of the index.
"""
import torch
import torch.nn as nn


class CatBondTrigger(nn.Module):
    def __init__(self):
        super().__init__()
        # station features: pga (g), pgv (cm/s), epicentral distance (km), vs30 (m/s)
        self.reliability = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("box", torch.tensor([34.0, 38.0, 136.0, 141.0]))  # lat/lon
        self.min_magnitude = 6.5
        self.attachment = 0.25   # g
        self.exhaustion = 0.60   # g
        self.near_km = 150.0
        self.max_stations = 32

    def forward(self, stations, event):
        # stations: (S, 4), event: (3,) = magnitude, latitude, longitude
        mag, lat, lon = event[0], event[1], event[2]
        in_box = (lat > self.box[0]) & (lat < self.box[1]) & (lon > self.box[2]) & (lon < self.box[3])
        if not bool(in_box) or mag < self.min_magnitude:
            # non-qualifying event: nothing is paid and no station counts
            return torch.zeros(1), torch.zeros(stations.shape[0])

        if stations.shape[0] > self.max_stations:
            # dense networks: the terms sheet only uses the closest stations
            keep = torch.topk(-stations[:, 2], self.max_stations).indices
            used = torch.zeros(stations.shape[0], dtype=torch.bool)
            used[keep] = True
        else:
            used = torch.ones(stations.shape[0], dtype=torch.bool)

        feats = torch.stack([stations[:, 0], stations[:, 1] / 100.0,
                             stations[:, 2] / 100.0, stations[:, 3] / 1000.0], dim=1)
        logits = self.reliability(feats).squeeze(-1)
        near = used & (stations[:, 2] < self.near_km)
        # the terms sheet falls back to every used station when fewer than three are near
        mask = near if int(near.sum()) >= 3 else used
        logits = logits.masked_fill(~mask, -1e4)
        weights = torch.softmax(logits, dim=0)
        index = (weights * stations[:, 0]).sum()

        if index >= self.exhaustion:
            payout = torch.ones(1)
        elif index > self.attachment:
            payout = ((index - self.attachment) / (self.exhaustion - self.attachment)).reshape(1)
        else:
            payout = torch.zeros(1)
        return payout, weights


def model():
    torch.manual_seed(5602)
    return CatBondTrigger().eval()


def _stations(n, pga_lo, pga_hi, dist_lo, dist_hi, seed):
    g = torch.Generator().manual_seed(seed)
    u = torch.rand(n, 4, generator=g)
    pga = pga_lo + (pga_hi - pga_lo) * u[:, 0]
    pgv = 100.0 * pga * (0.8 + 0.4 * u[:, 1])
    dist = dist_lo + (dist_hi - dist_lo) * u[:, 2]
    vs30 = 200.0 + 600.0 * u[:, 3]
    return torch.stack([pga, pgv, dist, vs30], dim=1)


def example_inputs():
    return (_stations(12, 0.30, 0.50, 10.0, 120.0, 1), torch.tensor([7.1, 35.6, 139.7]))


def dynamic_shapes():
    s = torch.export.Dim("stations", min=2, max=64)
    return ({0: s}, None)


def verify_inputs():
    return [
        # 12 near stations, index ~0.4 g -> linear part of the payout
        example_inputs(),
        # epicentre outside the box -> early return, nothing paid
        (_stations(8, 0.5, 0.9, 10.0, 80.0, 2), torch.tensor([7.4, 40.2, 142.0])),
        # inside the box but magnitude 5.9 < 6.5 -> early return
        (_stations(8, 0.5, 0.9, 10.0, 80.0, 3), torch.tensor([5.9, 36.0, 138.0])),
        # min 2 stations (fewer than 3 near -> all stations), strong shaking -> full payout
        (_stations(2, 0.70, 0.95, 20.0, 60.0, 4), torch.tensor([7.8, 36.5, 138.5])),
        # max 64 stations (32 closest used), most far away, weak shaking -> below attachment, zero payout
        (_stations(64, 0.02, 0.15, 30.0, 400.0, 5), torch.tensor([6.8, 34.5, 137.0])),
    ]
