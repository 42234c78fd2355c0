"""Municipal refuse truck along a fixed collection route: skip near-empty
bins, tip at the transfer station whenever the compactor body fills (a large
dumpster can need several trips), and end the shift on a distance budget."""
import torch
import torch.nn as nn
from torch.export import Dim


class RefuseRoute(nn.Module):
    def __init__(self, capacity=9000.0, min_pickup=15.0, max_km=120.0):
        super().__init__()
        self.capacity = capacity
        self.min_pickup = min_pickup
        self.max_km = max_km
        # compaction density model: loose kg -> effective kg in the body
        self.compaction = nn.Linear(1, 1)

    def compacted(self, kg):
        return kg * (0.6 + 0.3 * torch.sigmoid(self.compaction(kg[None] / 1000.0))[0])

    def forward(self, bin_kg, depot_km, leg_km):
        # bin_kg: [N] estimated bin contents, depot_km: [N] distance bin->station,
        # leg_km: [N] driving distance from the previous stop
        load = torch.zeros(())
        km = torch.zeros(())
        trips = []
        collected = torch.zeros_like(bin_kg)
        for i in range(bin_kg.shape[0]):
            km = km + leg_km[i]
            if km > self.max_km:
                break  # shift over, remaining bins stay for tomorrow
            if bin_kg[i] < self.min_pickup:
                continue
            remaining = self.compacted(bin_kg[i])
            while load + remaining > self.capacity:
                take = self.capacity - load
                remaining = remaining - take
                trips.append(load + take)
                km = km + 2.0 * depot_km[i]  # drive to the station and back
                load = torch.zeros(())
            load = load + remaining
            collected[i] = 1.0
        trips.append(load)  # final tip at end of shift
        return torch.stack(trips), collected, km


def model():
    torch.manual_seed(4916)
    return RefuseRoute().eval()


def _route(N, seed, kg=(5.0, 400.0), big=(), leg=0.4):
    g = torch.Generator().manual_seed(seed)
    b = kg[0] + (kg[1] - kg[0]) * torch.rand(N, generator=g)
    for i in big:
        b[i] = 25000.0
    depot = 3.0 + 10.0 * torch.rand(N, generator=g)
    legs = leg * (0.5 + torch.rand(N, generator=g))
    return b, depot, legs


def example_inputs():
    # ordinary residential route: skips, one or two tips
    return _route(80, 161)


def dynamic_shapes():
    n = Dim("stops", min=2, max=400)
    return ({0: n}, {0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),
        _route(5, 162, kg=(20.0, 60.0)),          # light: no tip, no skip
        _route(30, 163, big=(10,), leg=0.3),      # commercial dumpster: several trips in a row
        _route(400, 164, leg=0.8),                # long route: shift limit reached (break)
        _route(2, 165, kg=(1.0, 10.0)),           # both bins near-empty -> skipped
    ]
