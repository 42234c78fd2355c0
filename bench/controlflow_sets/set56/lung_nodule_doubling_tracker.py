"""Follow-up CT lung-nodule comparison: matching, doubling time, Lung-RADS.

The prior and the current low-dose CT each come with detected solid nodules
(x, y, z in mm, mean diameter in mm).  Current nodules are matched greedily to
the nearest unused prior nodule within 10 mm (a match closer than 1 mm ends
the search at once), volume doubling time (VDT) is computed for the matched
ones, and a simplified Lung-RADS category is assigned: by size for baseline
nodules, with growth upgrades and a category 3 floor for new nodules of 4 mm
or more.  A small network gives a malignancy risk per current nodule.
"""
import math

import torch
import torch.nn as nn

NO_PRIOR = -1


class RiskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, feats):
        return torch.sigmoid(self.net(feats)).squeeze(-1)


class NoduleTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.risk = RiskNet()
        self.match_mm = 10.0
        self.same_mm = 1.0
        self.max_vdt_days = 3650.0

    def volume(self, diameter):
        return math.pi / 6.0 * diameter ** 3

    def doubling_time(self, d_prior, d_now, days):
        v0, v1 = self.volume(d_prior), self.volume(d_now)
        if v1 <= v0 * 1.01:
            return torch.tensor(self.max_vdt_days)        # stable or shrinking
        return (days * math.log(2.0) / torch.log(v1 / v0)).clamp(max=self.max_vdt_days)

    def size_category(self, d):
        if d < 6.0:
            return 2
        elif d < 8.0:
            return 3
        elif d < 15.0:
            return 4        # 4A
        return 5            # 4B

    def lung_rads(self, d_now, d_prior):
        cat = self.size_category(d_now)
        if d_prior is None:
            # new nodule: suspicious from 4 mm
            return max(cat, 3) if d_now >= 4.0 else cat
        if d_now - d_prior > 1.5:
            return 4 if d_now < 8.0 else 5
        return cat

    def match(self, prior, current):
        used = torch.zeros(prior.shape[0], dtype=torch.bool)
        matches = []
        for i in range(current.shape[0]):
            best, best_d = NO_PRIOR, self.match_mm
            for j in range(prior.shape[0]):
                if used[j]:
                    continue
                dist = (current[i, :3] - prior[j, :3]).norm()
                # ties on distance go to the lower prior index (strict <)
                if dist < best_d:
                    best, best_d = j, dist
                    if dist < self.same_mm:
                        break
            if best != NO_PRIOR:
                used[best] = True
            matches.append(best)
        return matches

    def forward(self, prior, current, interval_days):
        # prior: (A, 4), current: (B, 4), interval_days: (1,)
        days = interval_days[0]
        matches = self.match(prior, current)
        cats, vdts, growth = [], [], []
        for i, j in enumerate(matches):
            d_now = current[i, 3]
            if j == NO_PRIOR:
                cats.append(self.lung_rads(d_now, None))
                vdts.append(torch.tensor(0.0))
                growth.append(d_now)
                continue
            d_prior = prior[j, 3]
            cats.append(self.lung_rads(d_now, d_prior))
            vdts.append(self.doubling_time(d_prior, d_now, days))
            growth.append(d_now - d_prior)
        vdt = torch.stack(vdts)
        feats = torch.stack([current[:, 3] / 10.0, torch.stack(growth) / 5.0,
                             vdt / self.max_vdt_days, current[:, 2] / 300.0], dim=1)
        return torch.tensor(cats), vdt, self.risk(feats), torch.tensor(matches)


def model():
    torch.manual_seed(5619)
    return NoduleTracker().eval()


def _nodules(n, seed, d_lo=3.0, d_hi=7.0):
    g = torch.Generator().manual_seed(seed)
    xyz = torch.rand(n, 3, generator=g) * torch.tensor([300.0, 250.0, 300.0])
    d = d_lo + (d_hi - d_lo) * torch.rand(n, 1, generator=g)
    return torch.cat([xyz, d], dim=1)


def _follow_up(prior, seed, shift=0.5, growth=0.0):
    g = torch.Generator().manual_seed(seed)
    cur = prior.clone()
    cur[:, :3] += shift * (torch.rand(prior.shape[0], 3, generator=g) - 0.5)
    cur[:, 3] += growth
    return cur


def example_inputs():
    prior = _nodules(6, 1)
    cur = _follow_up(prior, 11, shift=4.0)
    cur[2, 3] += 2.4                                   # one nodule grew
    cur = torch.cat([cur, torch.tensor([[150.0, 80.0, 120.0, 5.2]])])   # one new nodule
    return (prior, cur, torch.tensor([365.0]))


def dynamic_shapes():
    a = torch.export.Dim("prior_nodules", min=2, max=40)
    b = torch.export.Dim("current_nodules", min=2, max=40)
    return ({0: a}, {0: b}, None)


def verify_inputs():
    prior_big = _nodules(40, 2, d_lo=4.0, d_hi=20.0)
    cur_big = _follow_up(prior_big, 21, shift=0.6)     # everything within 1 mm -> early break
    crowd_prior = torch.tensor([[100.0, 100.0, 100.0, 9.0], [104.0, 100.0, 100.0, 6.5]])
    crowd_cur = torch.tensor([[102.5, 100.0, 100.0, 10.0], [101.0, 100.0, 100.0, 7.0],
                              [40.0, 60.0, 200.0, 3.1]])
    return [
        # 6 prior / 7 current, shifted 2 mm, one grew 2.4 mm (upgrade), one new 5.2 mm (cat 3)
        example_inputs(),
        # max 40 / max 40, unchanged sizes, positions within 1 mm -> inner loop breaks early
        # on every nodule, stable VDT cap, size categories 2..4B
        (prior_big, cur_big, torch.tensor([180.0])),
        # min 2 prior, 3 current: two nodules 4 mm apart compete (continue on the used one),
        # one small new nodule under 4 mm (cat 2)
        (crowd_prior, crowd_cur, torch.tensor([90.0])),
        # 2 prior / min 2 current, both shrank and moved > 10 mm -> no match: both new
        (_nodules(2, 3), _follow_up(_nodules(2, 3), 31, shift=60.0, growth=-0.5), torch.tensor([400.0])),
        # 12 prior / 12 current, all grew 2 mm: large ones go to 4B
        (_nodules(12, 4, 7.0, 14.0), _follow_up(_nodules(12, 4, 7.0, 14.0), 41, growth=2.0), torch.tensor([120.0])),
    ]
