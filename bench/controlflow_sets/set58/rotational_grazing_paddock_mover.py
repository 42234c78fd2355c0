"""Rotational grazing planner for a beef herd over a daily pasture-growth forecast.

Each day the herd eats from its paddock; once the paddock is grazed down to the
residual the herd moves to the rested paddock with the most cover above the entry
target. If none is ready the herd is fed hay and, when the whole farm cannot carry it,
destocked. Pasture growth uses a logistic curve with a small learned correction.
Outputs: final cover (kg DM/ha), paddock occupied each day, hay fed (kg DM), head count.
"""
import torch
import torch.nn as nn


class PastureGrowth(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 6), nn.Tanh(), nn.Linear(6, 1))

    def forward(self, cover, potential):
        base = potential * cover / (cover + 800.0) * (1.0 - cover / 4500.0)
        x = torch.stack([cover / 3000.0, potential.expand_as(cover) / 50.0], dim=-1)
        return base * (1.0 + 0.2 * torch.tanh(self.net(x).squeeze(-1)))


class GrazingPlanner(nn.Module):
    def __init__(self, residual=1500.0, entry_cover=2600.0, min_rest=20, min_head=10.0,
                 reserve_days=10.0):
        super().__init__()
        self.growth = PastureGrowth()
        self.residual, self.entry_cover = residual, entry_cover
        self.min_rest, self.min_head, self.reserve_days = min_rest, min_head, reserve_days

    def pick_paddock(self, cover, rest, current, min_rest):
        best, best_cover = -1, None
        for p in range(cover.shape[0]):
            if p == current or rest[p] < min_rest:
                continue
            if cover[p] < self.entry_cover:
                continue
            if best < 0 or cover[p] > best_cover:  # strict: first paddock wins a tie
                best, best_cover = p, cover[p]
        return best

    def forward(self, cover, area, growth, herd):
        cover = cover.clone()
        n_pad = cover.shape[0]
        # small farms cannot afford long rests
        min_rest = self.min_rest if n_pad > 4 else self.min_rest // 2
        head, intake = herd[0], herd[1]
        rest = torch.full((n_pad,), min_rest, dtype=torch.long)
        current = int(torch.argmax(cover))
        hay = torch.zeros(())
        where = []
        for day in range(growth.shape[0]):
            demand = head * intake
            available = (cover[current] - self.residual) * area[current]
            if available < demand:
                nxt = self.pick_paddock(cover, rest, current, min_rest)
                if nxt < 0:
                    hay = hay + demand  # nothing ready: stay put and feed hay
                    standing = ((cover - self.residual).clamp(min=0.0) * area).sum()
                    while head > self.min_head and standing < head * intake * self.reserve_days:
                        head = head * 0.9  # sell a tenth of the herd
                else:
                    current = nxt
            eaten = torch.minimum(demand, (cover[current] - self.residual).clamp(min=0.0)
                                  * area[current])
            cover[current] = cover[current] - eaten / area[current]
            rest = rest + 1
            rest[current] = 0
            cover = cover + self.growth(cover, growth[day])
            where.append(torch.tensor(current))
        return cover, torch.stack(where), hay, head


def model():
    torch.manual_seed(5821)
    return GrazingPlanner().eval()


def _farm(n_pad, n_days, growth_rate, seed, head=60.0):
    g = torch.Generator().manual_seed(seed)
    cover = 1800.0 + 1500.0 * torch.rand(n_pad, generator=g)
    area = 4.0 + 4.0 * torch.rand(n_pad, generator=g)
    growth = growth_rate * (0.7 + 0.6 * torch.rand(n_days, generator=g))
    return cover, area, growth, torch.tensor([head, 12.0])


def example_inputs():
    return _farm(8, 30, 45.0, seed=1)


def dynamic_shapes():
    paddocks = torch.export.Dim("paddocks", min=3, max=16)
    return ({0: paddocks}, {0: paddocks}, {0: torch.export.Dim("days", min=5, max=60)}, None)


def verify_inputs():
    return [
        # spring, 8 paddocks: regular moves to the best rested paddock
        example_inputs(),
        # 16 paddocks, 60 days of good growth: long rotation, some paddocks skipped as unrested
        _farm(16, 60, 55.0, seed=2),
        # drought on 3 paddocks (short rests allowed), 5 days, big herd: hay and destocking
        _farm(3, 5, 2.0, seed=3, head=150.0),
        # 4 paddocks, slow autumn growth over 40 days: hay days but the farm carries the herd
        _farm(4, 40, 12.0, seed=4, head=25.0),
    ]
