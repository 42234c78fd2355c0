"""Last-mile delivery: load parcels into vans in reverse stop order.

parcels[i] = (volume litres, weight kg, stop index on the route). Parcels for
the last stops are loaded first (they end up at the back). Each parcel goes
into the first van with enough volume and payload left; parcels that a
learned damage-risk model ranks in the riskiest quarter need a volume margin so they are
not crushed. Parcels that fit nowhere roll over to the next day (-1).
"""
import torch
import torch.nn as nn


class VanLoader(nn.Module):
    def __init__(self, fragile_margin_l=150.0):
        super().__init__()
        self.fragile_margin_l = fragile_margin_l
        self.damage_risk = nn.Sequential(nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 1))

    def forward(self, parcels, vans):
        n = parcels.shape[0]
        # deepest stop first; the index breaks ties between parcels for the same stop
        key = parcels[:, 2] * n + torch.arange(n, dtype=parcels.dtype)
        order = torch.argsort(key, descending=True)
        density = parcels[:, 1] / parcels[:, 0]
        risk = self.damage_risk(torch.stack([parcels[:, 0] / 100.0, parcels[:, 1] / 20.0, density], dim=1))
        risk = risk.squeeze(1)
        fragile = risk > torch.quantile(risk, 0.75)    # riskiest quarter handled as fragile

        vol_left = [v[0] for v in vans]
        kg_left = [v[1] for v in vans]
        loaded = []
        for i in range(n):
            p = order[i]
            vol, kg = parcels[p, 0], parcels[p, 1]
            for v in range(vans.shape[0]):
                if fragile[p] and vol_left[v] - vol < self.fragile_margin_l:
                    continue
                if vol <= vol_left[v] and kg <= kg_left[v]:
                    vol_left[v] = vol_left[v] - vol
                    kg_left[v] = kg_left[v] - kg
                    loaded.append(torch.tensor(v))
                    break
            else:
                loaded.append(torch.tensor(-1))   # rolls over to tomorrow
        in_load_order = torch.stack(loaded)
        assignment = torch.empty_like(in_load_order).scatter_(0, order, in_load_order)
        fill = 1.0 - torch.stack(vol_left) / vans[:, 0]
        return assignment, fill


def model():
    torch.manual_seed(5519)
    return VanLoader().eval()


def _day(n_parcels, n_vans, stops, van_l, van_kg, seed):
    g = torch.Generator().manual_seed(seed)
    vol = 5.0 + 120.0 * torch.rand(n_parcels, generator=g) ** 2
    kg = 0.5 + 25.0 * torch.rand(n_parcels, generator=g)
    stop = torch.randint(0, stops, (n_parcels,), generator=g).float()
    vans = torch.stack([torch.full((n_vans,), van_l), torch.full((n_vans,), van_kg)], dim=1)
    vans = vans * (1.0 + 0.1 * torch.arange(n_vans, dtype=torch.float32)).unsqueeze(1)
    return torch.stack([vol, kg, stop], dim=1), vans


def example_inputs():
    return _day(24, 3, 10, 800.0, 300.0, 1)


def dynamic_shapes():
    parcels = torch.export.Dim("parcels", min=2, max=64)
    vans = torch.export.Dim("vans", min=2, max=6)
    return ({0: parcels}, {0: vans})


def verify_inputs():
    return [
        example_inputs(),                             # enough space: everything loads, fragile parcels skip tight vans
        _day(2, 2, 2, 500.0, 200.0, 2),               # parcels=min, vans=min: both load into the first van
        _day(64, 6, 25, 600.0, 250.0, 3),             # parcels=max, vans=max: first vans fill up, later vans take the rest
        _day(30, 2, 8, 300.0, 60.0, 4),               # payload-limited small vans: many roll-overs
    ]
