"""Sailing regatta series scoring (RRS Appendix A low-point system).

finishes[b, r] is boat b's finishing place in race r, 0 for DNF/DNS/DSQ (scored as
fleet size + 1). Races with fewer than three finishers are abandoned and not scored.
Worst scores are discarded depending on how many races were sailed. Ties on net points
are broken on the last race sailed, then on sail number (boat index) so that the
ranking never depends on sort order.
"""
import torch
import torch.nn as nn


def discards_for(n_races):
    # notice of race: 1 discard from 5 races, 2 from 9
    if n_races >= 9:
        return 2
    elif n_races >= 5:
        return 1
    return 0


class RegattaScorer(nn.Module):
    def __init__(self, min_finishers=3, discards=True):
        super().__init__()
        self.min_finishers = min_finishers
        self.discards = discards

    def forward(self, finishes):
        n_boats, n_races = finishes.shape
        dnf_points = n_boats + 1
        sailed = []
        for r in range(n_races):
            col = finishes[:, r]
            if (col == 0).all() or (col > 0).sum() < self.min_finishers:
                continue  # abandoned race
            if (col == 0).any():
                col = torch.where(col == 0, torch.full_like(col, dnf_points), col)
            sailed.append(col)
        if len(sailed) == 0:
            # no valid race: series not constituted, everybody tied on zero
            return torch.zeros(n_boats), torch.arange(1, n_boats + 1)
        scores = torch.stack(sailed, dim=1)
        total = scores.sum(dim=1)
        n_disc = discards_for(len(sailed)) if self.discards else 0
        if n_disc > 0:
            net = total - torch.topk(scores, n_disc, dim=1).values.sum(dim=1)
        else:
            net = total
        # A8.2 style tie-break on the last race sailed, then sail number
        base = dnf_points + 1
        key = (net * base + scores[:, -1]) * n_boats + torch.arange(n_boats)
        order = torch.argsort(key)
        rank = torch.empty_like(order)
        rank[order] = torch.arange(1, n_boats + 1)
        return net.float(), rank


def model():
    torch.manual_seed(5808)
    return RegattaScorer().eval()


def _series(n_boats, n_races, seed, dnf_rate=0.05, abandon=()):
    g = torch.Generator().manual_seed(seed)
    cols = []
    for r in range(n_races):
        places = torch.randperm(n_boats, generator=g) + 1
        dnf = torch.rand(n_boats, generator=g) < dnf_rate
        places = torch.where(dnf, torch.zeros_like(places), places)
        if r in abandon:
            places = torch.zeros_like(places)
            places[0] = 1  # only one boat got round before the wind died
        cols.append(places)
    return torch.stack(cols, dim=1)


def example_inputs():
    return (_series(10, 6, seed=1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("boats", min=3, max=30), 1: torch.export.Dim("races", min=2, max=12)},)


def verify_inputs():
    return [
        # 10 boats, 6 races with a few DNFs: one discard
        example_inputs(),
        # 30 boats, 12 races, one abandoned: 11 sailed -> two discards
        (_series(30, 12, seed=2, dnf_rate=0.1, abandon=(4,)),),
        # 3 boats, 2 races, no DNFs: no discard; ties on net broken by last race
        (torch.tensor([[1, 2], [2, 1], [3, 3]]),),
        # 4 boats, 2 races both abandoned (all DNF / one finisher): early return
        (torch.tensor([[0, 1], [0, 0], [0, 0], [0, 0]]),),
        # 5 boats, 4 races, four boats tied on 10 points: last race decides
        (torch.tensor([[1, 2, 3, 4], [2, 1, 4, 3], [3, 4, 1, 2], [4, 3, 2, 1], [5, 5, 5, 5]]),),
        # 5 boats, 2 races, boats 0 and 1 DNF twice: equal net and last race -> sail number
        (torch.tensor([[0, 0], [0, 0], [1, 1], [2, 3], [3, 2]]),),
    ]
