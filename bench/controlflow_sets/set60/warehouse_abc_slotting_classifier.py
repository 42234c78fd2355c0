"""Pick-face slotting: ABC velocity classes (Pareto on picks) and storage zone per SKU."""
import torch
import torch.nn as nn
from torch.export import Dim

GOLDEN, FLOOR, SHELF = 0, 1, 2


def zone_for(abc, cube_ft3, golden_max_ft3):
    if abc == 0 and cube_ft3 <= golden_max_ft3:
        return GOLDEN          # fast and hand-sized: waist-high pick face
    if abc == 0 or cube_ft3 > 4.0:
        return FLOOR           # fast but bulky, or too big for shelving: floor pallet
    return SHELF


class AbcSlotter(nn.Module):
    def __init__(self, a_share=0.8, b_share=0.95, golden_max_ft3=1.5, min_history=8):
        super().__init__()
        self.a_share, self.b_share = a_share, b_share
        self.golden_max_ft3, self.min_history = golden_max_ft3, min_history
        self.gru = nn.GRU(1, 6, batch_first=True)  # learned trend over the weekly series
        self.head = nn.Linear(6, 1)

    def forward(self, picks, cube):
        # picks (S, W) weekly pick lines per SKU, oldest week first; cube (S,) ft3 per unit
        n_sku = picks.shape[0]
        if picks.shape[1] < self.min_history:
            velocity = picks.mean(1)  # too little history for the trend model
        else:
            h, _ = self.gru(picks.unsqueeze(-1) / 100.0)
            trend = 0.8 + 0.4 * torch.sigmoid(self.head(h[:, -1])).squeeze(1)
            velocity = picks[:, -4:].mean(1) * trend
        total = velocity.sum()
        if total <= 0:
            # new site, nothing picked yet: everything is C on shelving
            return torch.full((n_sku,), 2), torch.full((n_sku,), SHELF)
        order = torch.sort(velocity, descending=True, stable=True).indices
        classes, zones = [], []
        cum = torch.zeros(())
        for k in range(n_sku):
            i = order[k]
            share_before = cum / total
            if share_before < self.a_share:
                abc = 0
            elif share_before < self.b_share:
                abc = 1
            else:
                abc = 2
            cum = cum + velocity[i]
            classes.append(torch.tensor(abc))
            zones.append(torch.tensor(zone_for(abc, cube[i], self.golden_max_ft3)))
        inv = torch.argsort(order)
        return torch.stack(classes)[inv], torch.stack(zones)[inv]


def model():
    torch.manual_seed(6008)
    return AbcSlotter().eval()


def _history(n_sku, weeks, seed, zero=False):
    g = torch.Generator().manual_seed(seed)
    rate = 3.0 + 200.0 * torch.rand(n_sku, 1, generator=g).pow(3)  # long-tailed demand
    picks = torch.poisson(rate.expand(n_sku, weeks), generator=g)
    cube = 0.1 + 6.0 * torch.rand(n_sku, generator=g)
    return (torch.zeros_like(picks) if zero else picks), cube


def example_inputs():
    return _history(12, 10, 1)


def dynamic_shapes():
    skus = Dim("skus", min=2, max=64)
    return ({0: skus, 1: Dim("weeks", min=2, max=26)}, {0: skus})


def verify_inputs():
    return [
        _history(12, 10, 1),           # example: trend model, A/B/C split, all three zones
        _history(2, 2, 2),             # min SKUs and weeks: plain mean velocity
        _history(64, 26, 3),           # max SKUs and weeks
        _history(5, 4, 4, zero=True),  # nothing picked yet: early return
    ]
