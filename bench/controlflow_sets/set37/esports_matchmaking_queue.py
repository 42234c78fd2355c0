"""1v1 ranked matchmaking tick for an online game.

Players in the queue have a skill rating (MMR) and a time already waited.  Each
round serves players longest-waiting first and pairs them with the closest-
rated unmatched player inside a search window that widens every round and with
waiting time.  A learned match-quality model can veto lopsided pairs for
players who have not waited long.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class MatchQuality(nn.Module):
    def __init__(self, gap_scale=250.0, smurf_gap=300.0):
        super().__init__()
        self.gap_scale = gap_scale
        self.smurf_gap = smurf_gap
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, a, b):
        gap = (a[0] - b[0]).abs()
        x = torch.stack([a[0] / 3000.0, b[0] / 3000.0, a[1] / 300.0, b[1] / 300.0])
        q = torch.sigmoid(self.net(x))[0] * torch.exp(-gap / self.gap_scale)
        if gap > self.smurf_gap:
            q = q * 0.5          # large gaps are often smurfs: quality estimate unreliable
        return q


class Matchmaker(nn.Module):
    def __init__(self, base_window=100.0, widen_per_s=1.0, max_rounds=3):
        super().__init__()
        self.base_window = base_window
        self.widen_per_s = widen_per_s
        self.max_rounds = max_rounds
        self.min_quality = 0.25
        self.patience_s = 120.0
        self.quality = MatchQuality()

    def forward(self, mmr, wait_s):
        n = mmr.shape[0]
        unmatched = torch.ones(n, dtype=torch.bool)
        order = torch.argsort(wait_s, descending=True)
        pairs, qualities = [], []
        rnd = 0
        while unmatched.sum() >= 2 and rnd < self.max_rounds:
            for k in range(n):
                i = order[k]
                if not unmatched[i]:
                    continue
                window = (self.base_window + self.widen_per_s * wait_s[i]) * (2 ** rnd)
                gap = (mmr - mmr[i]).abs()
                cand = unmatched & (gap <= window)
                cand[i] = False
                if not cand.any():
                    continue
                j = torch.where(cand, gap, torch.full_like(gap, float("inf"))).argmin()
                a = torch.stack([mmr[i], wait_s[i]])
                b = torch.stack([mmr[j], wait_s[j]])
                q = self.quality(a, b)
                if q < self.min_quality and wait_s[i] < self.patience_s:
                    continue
                pairs.append(torch.stack([i, j]))
                qualities.append(q)
                unmatched[i] = False
                unmatched[j] = False
                if unmatched.sum() < 2:
                    break
            rnd += 1
        if pairs:
            return torch.stack(pairs), torch.stack(qualities), unmatched
        return torch.zeros(0, 2, dtype=torch.long), torch.zeros(0), unmatched


def model():
    torch.manual_seed(44)
    return Matchmaker().eval()


def example_inputs():
    mmr = torch.tensor([1500.0, 1530.0, 1720.0, 1410.0, 2210.0, 1660.0])
    wait = torch.tensor([30.0, 12.0, 95.0, 61.0, 8.0, 44.0])
    return mmr, wait


def dynamic_shapes():
    n = Dim("queue", min=2, max=64)
    return {0: n}, {0: n}


def verify_inputs():
    return [
        example_inputs(),                                                     # several rounds, one outlier left over
        (torch.tensor([1200.0, 1230.0]), torch.tensor([10.0, 5.0])),          # two close players -> matched, loop breaks at once
        (torch.tensor([900.0, 2600.0]), torch.tensor([20.0, 3.0])),           # too far apart in all rounds -> no pairs
        (torch.tensor([1000.0, 1000.0 + 290.0, 1600.0, 1600.0 + 345.0]),
         torch.tensor([150.0, 20.0, 10.0, 5.0])),                             # long waiter accepts low-quality match; smurf gap
        (torch.tensor([1800.0, 1810.0, 1835.0, 1875.0, 1930.0, 2000.0, 2090.0, 2200.0]),
         torch.tensor([5.0, 7.0, 9.0, 11.0, 13.0, 15.0, 17.0, 19.0])),        # dense queue, everyone matched in round 0
    ]
