"""Ride-hailing pooling: greedily pair riders whose shared trip adds little detour, others ride solo."""
import torch
import torch.nn as nn


class PoolMatcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.traffic = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        self.max_detour = 4.0     # km of extra driving tolerated for a pair

    def pair_detour(self, i, pickups, dropoffs, slowdown):
        # extra driving when rider i shares with each other rider j:
        # pick i -> pick j -> drop i -> drop j, compared with two separate trips
        solo_i = torch.linalg.norm(dropoffs[i] - pickups[i])
        solo = torch.linalg.norm(dropoffs - pickups, dim=1)
        shared = (torch.linalg.norm(pickups - pickups[i], dim=1)
                  + torch.linalg.norm(dropoffs[i] - pickups, dim=1)
                  + torch.linalg.norm(dropoffs - dropoffs[i], dim=1))
        return (shared - solo_i) * slowdown - solo

    def forward(self, pickups, dropoffs):
        # pickups [R, 2], dropoffs [R, 2] km
        feats = torch.cat([pickups, dropoffs], dim=1)
        slowdown = 1.0 + 0.2 * torch.sigmoid(self.traffic(feats)).squeeze(1)
        n = pickups.shape[0]
        matched = torch.zeros(n, dtype=torch.bool)
        pairs = []
        solo = []
        for i in range(n):
            if matched[i]:
                continue
            cost = self.pair_detour(i, pickups, dropoffs, slowdown)
            cost = torch.where(matched, torch.full_like(cost, float("inf")), cost)
            cost[i] = float("inf")
            j = int(cost.argmin())
            if cost[j] < self.max_detour:
                matched[i] = True
                matched[j] = True
                pairs.append(torch.tensor([i, j]))
            else:
                matched[i] = True
                solo.append(i)
        pair_t = torch.stack(pairs) if len(pairs) > 0 else torch.zeros(0, 2, dtype=torch.int64)
        return pair_t, torch.tensor(solo, dtype=torch.int64)


def model():
    torch.manual_seed(0)
    return PoolMatcher().eval()


def _case(seed, n, spread):
    g = torch.Generator().manual_seed(seed)
    pick = spread * torch.randn(n, 2, generator=g)
    drop = pick + torch.tensor([6.0, 2.0]) + spread * torch.randn(n, 2, generator=g)
    return pick, drop


def example_inputs():
    return _case(0, 6, 1.5)


def dynamic_shapes():
    r = torch.export.Dim("riders", min=2, max=40)
    return ({0: r}, {0: r})


def verify_inputs():
    return [
        _case(1, 7, 1.0),     # odd count: last rider may be left over
        _case(2, 5, 8.0),     # riders far apart: mostly solo
        _case(3, 8, 2.0),
        _case(4, 2, 0.5),     # one pair
        _case(5, 3, 10.0),    # nobody close enough: all solo
    ]
