"""Cinema booking: seat a group together, splitting it only when necessary.

Rows are visited in order of a learned desirability score (distance to the
screen, centre of the hall...).  In each row the allocator looks for a block
of consecutive free seats as close to the centre as possible; in wide halls
blocks may not straddle the centre aisle.  If no row can take the whole
group it is split in two (bigger half first) and each part is seated
separately; parts of one or two people that still cannot be seated make the
booking fail.

KIND X.  Constructs: 1 (if on .all() / .sum() of seat masks), 2 (early
return on failure; helper returning inside loops), 3 (or/and mixing Python
and tensor-derived values), 5 (for over the dynamic row / seat counts and a
tensor-derived group size int(.item())), 6 (continue on tensor conditions,
return from inside nested loops), 7 (helper with nested loops, row scorer
submodule), 8 (branch on the dynamic number of seats per row), 9 (Python
work list of group parts, plain Python arithmetic on positions).
"""
import torch
import torch.nn as nn
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 5, 6, 7, 8, 9)


class RowScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        for layer in (self.net[0], self.net[2]):
            nn.init.normal_(layer.weight, std=1.0)

    def forward(self, n_rows, occupancy):
        pos = torch.arange(n_rows, dtype=torch.float32) / n_rows
        feats = torch.stack([pos, (pos - 0.6).abs(), occupancy], dim=1)
        return self.net(feats).squeeze(1)


class CinemaGroupSeater(nn.Module):
    def __init__(self, wide_hall=16, min_split=2):
        super().__init__()
        self.wide_hall = wide_hall
        self.min_split = min_split
        self.row_scorer = RowScorer()

    def _find_block(self, seats, row_order, need, aisle):
        n_cols = seats.shape[1]
        centre = (n_cols - need) / 2.0
        for i in range(row_order.shape[0]):
            r = int(row_order[i])
            free = seats[r] == 0
            if free.sum() < need:
                continue
            best = None
            for c0 in range(n_cols - need + 1):
                if aisle is not None and c0 < aisle < c0 + need:
                    continue  # block would straddle the aisle
                if free[c0:c0 + need].all() and (best is None or abs(c0 - centre) < abs(best - centre)):
                    best = c0
            if best is not None:
                return r, best
        return None

    def forward(self, occupied, group_size):
        # occupied: (R, C) 1 = sold, 0 = free; group_size: () number of tickets
        n_rows, n_cols = occupied.shape
        aisle = n_cols // 2 if n_cols > self.wide_hall else None
        scores = self.row_scorer(n_rows, occupied.mean(dim=1))
        row_order = torch.argsort(scores, descending=True)

        seats = occupied.clone()
        placed = []
        parts = [int(group_size.item())]
        while parts:
            need = parts.pop(0)
            spot = self._find_block(seats, row_order, need, aisle)
            if spot is None:
                if need <= self.min_split:
                    return occupied.clone(), torch.tensor(False), torch.zeros(0, 3, dtype=torch.long)
                half = need // 2
                parts = [need - half, half] + parts
                continue
            r, c0 = spot
            seats[r, c0:c0 + need] = 2.0
            placed.append((r, c0, need))
        return seats, torch.tensor(True), torch.tensor(placed, dtype=torch.long)


def model():
    torch.manual_seed(61020)
    return CinemaGroupSeater().eval()


def make_hall(n_rows, n_cols, sold):
    occ = torch.zeros(n_rows, n_cols)
    for r, c0, c1 in sold:
        occ[r, c0:c1] = 1.0
    return occ


def example_inputs():
    # 8 x 12 hall, some seats sold, group of 4 fits in the best row
    return (make_hall(8, 12, [(4, 0, 5), (5, 3, 9), (2, 6, 8)]), torch.tensor(4))


def dynamic_shapes():
    return ({0: Dim("rows", min=2, max=40), 1: Dim("cols", min=4, max=48)}, None)


def verify_inputs():
    # every row has at most 3 consecutive free seats -> a group of 6 splits into 3 + 3
    fragmented = make_hall(6, 10, [(r, c, c + 1) for r in range(6) for c in (3, 7)])
    # nearly sold out: single free seats only -> the pair cannot be seated -> failure
    sold_out = make_hall(3, 6, [(r, 0, 6) for r in range(3)])
    sold_out[0, 1] = 0.0
    sold_out[1, 4] = 0.0
    # wide hall (20 seats > 16): aisle after seat 10; the centre block must not cross it
    wide = make_hall(5, 20, [(r, 0, 4) for r in range(5)])
    return [
        # whole group in one block (skipping rows with too few free seats if any)
        example_inputs(),
        # split 6 -> 3 + 3, both parts seated
        (fragmented, torch.tensor(6)),
        # pair cannot be seated anywhere: early return, booking fails
        (sold_out, torch.tensor(2)),
        # wide hall with aisle, group of 5
        (wide, torch.tensor(5)),
        # group larger than a row (14 > 12): split 7 + 7
        (make_hall(4, 12, []), torch.tensor(14)),
    ]
