"""Parcel-to-pallet assignment (first-fit decreasing bin packing).

A small regressor turns each parcel's features into a pallet-volume fraction;
parcels are placed largest first into the first pallet with room (a new pallet
is opened when none fits).  Tiny filler parcels are held back and dropped into
the emptiest pallet at the end.  Returns per-parcel pallet ids and per-pallet
loads.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class VolumeRegressor(nn.Module):
    def __init__(self, n_feat=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        return 0.02 + 0.6 * torch.sigmoid(3.0 * self.net(feats)).squeeze(-1)


class FirstFitPacker(nn.Module):
    def __init__(self):
        super().__init__()
        self.volume = VolumeRegressor()
        self.capacity = 1.0
        self.filler = 0.1

    def forward(self, parcel_feats):
        sizes = self.volume(parcel_feats)
        order = torch.argsort(sizes, descending=True)
        bin_loads = []
        assignment = torch.full((sizes.shape[0],), -1, dtype=torch.long)
        fillers = []
        for i in range(order.shape[0]):
            idx = order[i]
            s = sizes[idx]
            if s < self.filler:
                fillers.append(idx)
                continue
            for b in range(len(bin_loads)):
                if bin_loads[b] + s <= self.capacity:
                    bin_loads[b] = bin_loads[b] + s
                    assignment[idx] = b
                    break
            else:
                bin_loads.append(s)
                assignment[idx] = len(bin_loads) - 1
        if not bin_loads:
            # only fillers: they all share one pallet
            bin_loads.append(torch.zeros(()))
        loads = torch.stack(bin_loads)
        for idx in fillers:
            b = loads.argmin()
            loads = loads + sizes[idx] * nn.functional.one_hot(b, loads.shape[0]).float()
            assignment[idx] = b
        return assignment, loads


def model():
    torch.manual_seed(0)
    return FirstFitPacker().eval()


def _make(seed, n, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(n, 4, generator=g) * 2.0 + shift,)


def example_inputs():
    return _make(0, 8)


def dynamic_shapes():
    return ({0: Dim("parcels", min=2, max=64)},)


def verify_inputs():
    return [
        _make(9, 5),              # three fillers
        _make(0, 16),             # no fillers, many pallets
        _make(0, 3),              # a single filler
        _make(5, 12),
        _make(1, 4, shift=-3.0),  # only fillers: one shared pallet
        _make(3, 8),
    ]
