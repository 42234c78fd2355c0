"""Frozen-food warehouse: pick-face replenishment planner.

Each SKU has a pick face (cases reachable by the order pickers) fed from
reserve pallets by reach trucks.  A face is topped up when its days of cover
(against a demand forecast with a small learned uplift) drop below a
threshold.  Moves into a zone that is running warm are frozen, and large
zones are split into waves of at most `wave_size` moves.
"""
import torch
import torch.nn as nn


class PickFaceReplenisher(nn.Module):
    def __init__(self):
        super().__init__()
        self.face_capacity = 40.0      # cases per pick face
        self.min_days_cover = 1.5
        self.frozen_limit_c = -18.0
        self.warm_margin_c = 3.0
        self.wave_size = 16
        self.big_zone = 32
        # promotion / weekday uplift of the demand forecast
        self.forecast = nn.Linear(3, 1)

    def uplift(self, feats):
        return 1.0 + 0.1 * torch.tanh(self.forecast(feats / 50.0)).squeeze(-1)

    def order_qty(self, face, reserve, case_pack, demand):
        if reserve <= 0:
            return torch.zeros(()), torch.tensor(1)  # nothing in reserve: stock-out risk
        cover = face / torch.clamp(demand, min=0.1)
        if cover >= self.min_days_cover:
            return torch.zeros(()), torch.tensor(0)  # enough on the face
        need = self.face_capacity - face
        qty = torch.minimum(need, reserve)
        # reach trucks move whole inner packs only
        qty = torch.floor(qty / case_pack) * case_pack
        return qty, torch.tensor(2)

    def forward(self, skus, zone_temp):
        n = skus.shape[0]
        demand = skus[:, 2] * self.uplift(skus[:, :3])
        warm = zone_temp > self.frozen_limit_c + self.warm_margin_c
        if warm.all():
            # whole zone out of spec: QA hold, no product moves at all
            return torch.zeros(n), torch.full((n,), 3, dtype=torch.long), torch.tensor(0)

        qtys, codes = [], []
        for i in range(n):
            if warm[i]:
                qtys.append(torch.zeros(()))
                codes.append(torch.tensor(3))
                continue
            q, c = self.order_qty(skus[i, 0], skus[i, 1], skus[i, 3], demand[i])
            qtys.append(q)
            codes.append(c)
        qty = torch.stack(qtys)
        code = torch.stack(codes)

        moves = (qty > 0).sum()
        if n > self.big_zone:
            waves = torch.div(moves + self.wave_size - 1, self.wave_size, rounding_mode="floor")
        else:
            waves = (moves > 0).long()
        return qty, code, waves


def model():
    torch.manual_seed(5902)
    return PickFaceReplenisher().eval()


def make_zone(n, seed, temp=-21.0):
    g = torch.Generator().manual_seed(seed)
    face = torch.rand(n, generator=g) * 30.0
    reserve = torch.rand(n, generator=g) * 120.0
    demand = 2.0 + torch.rand(n, generator=g) * 18.0
    pack = torch.randint(1, 5, (n,), generator=g).float()
    skus = torch.stack([face, reserve, demand, pack], 1)
    skus[::5, 1] = 0.0  # every fifth SKU has an empty reserve location
    temps = temp + torch.rand(n, generator=g)
    return skus, temps


def example_inputs():
    return make_zone(12, 1)


def dynamic_shapes():
    s = torch.export.Dim("n_skus", min=2, max=64)
    return ({0: s}, {0: s})


def verify_inputs():
    # example: 12 SKUs, cold zone: mix of no-move / stock-out / top-up; small zone
    ex = example_inputs()
    # n = min; both faces well stocked -> no move, waves = 0
    skus = torch.tensor([[35.0, 50.0, 4.0, 2.0], [38.0, 10.0, 3.0, 1.0]])
    two = (skus, torch.tensor([-22.0, -21.5]))
    # n = max, big zone -> wave count; a few warm slots are skipped
    big_skus, big_t = make_zone(64, 2)
    big_t[[3, 17, 40]] = -12.0
    big = (big_skus, big_t)
    # all warm (defrost cycle stuck): QA hold, early return
    hot_skus, hot_t = make_zone(5, 3, temp=-10.0)
    hot = (hot_skus, hot_t)
    return [ex, two, big, hot]
