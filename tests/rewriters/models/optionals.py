"""``best = None`` ... ``if best is None or s > best``, and helpers that ``return None`` on some
paths: a value that is None on one path and a tensor on another, which a torch.cond cannot merge
without a presence flag; a helper whose `return` inside a loop gives a value and whose end
gives None (a checkout table searched for a finishing double); ``best_cost = None`` guarded by a
sentinel (``if best_day < 0 or cost < best_cost``) in a loop that may break, and in a helper's
loop called under a tensor branch in another loop's body (a paddock picked when grass runs out);
``aisle = n // 2 if n > 16 else None`` on a dynamic size, tested with ``is not None`` in a loop."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class BeamChildren(nn.Module):
    """Three candidate beams (a static loop), skipped by a tensor ``continue`` when out of range;
    the best score starts as None, and no candidate at all falls back to the mean."""

    def forward(self, x):
        best, best_i = None, torch.zeros((), dtype=torch.int64)
        for c in range(3):
            s = x[c].sum()
            if s < -5.0:
                continue
            if best is None or s > best:
                best, best_i = s, torch.tensor(c)
        if best is None:
            return x.mean(), best_i
        return best, best_i


class BestRow(nn.Module):
    """The same search over every row of a dynamic number of rows."""

    def forward(self, x):
        best = None
        for i in range(x.shape[0]):
            s = x[i].sum()
            if s < -5.0:
                continue
            if best is not None and s <= best:
                continue
            best = s
        if best is None:
            return x.mean()
        return best * 2.0


def first_below(x, level):
    """Where ``x`` first drops below ``level``, or None when it never does."""
    below = x < level
    if not below.any():
        return None
    return torch.nonzero(below)[0, 0]


class DecaySpan(nn.Module):
    """A silent input returns early; otherwise the -1 and -2 crossings (None when not reached)
    pick the span measured. The helper runs inside the early return's cond."""

    def forward(self, x):
        if x.abs().amax() < 1e-3:
            return torch.zeros(()), torch.zeros(())
        a = first_below(x, -1.0)
        b = first_below(x, -2.0)
        if b is not None:
            return (b - a).float(), torch.ones(())
        if a is None:
            return torch.zeros(()), torch.full((), 2.0)
        return a.float(), torch.full((), 0.5)


def _rows(*sums: float) -> tuple:
    return (torch.tensor([[v / 4.0] * 4 for v in sums]),)


class Spotter(nn.Module):
    """None when nothing is bright enough, else a pair (where, how bright)."""

    def forward(self, row):
        idx = torch.argmax(row)
        if row[idx] < 0.5:
            return None
        return idx.float(), row[idx]


class Tracker(nn.Module):
    """A loop whose state changes only on steps where the submodule saw a pair (`is not None`)."""

    def __init__(self):
        super().__init__()
        self.spot = Spotter()

    def forward(self, frames):
        locked = 0
        out = []
        for t in range(frames.shape[0]):
            found = self.spot(frames[t])
            if found is not None:
                where, level = found
                locked = 1
                out.append(torch.stack([where, level]))
            else:
                out.append(torch.full((2,), -1.0 + locked))
        return torch.stack(out)


class CheapestJoin(nn.Module):
    """Greedy pick over the rows not taken yet: ``best, best_cost, best_rows = -1, None, None``, only
    ``best_cost`` tested with ``is None``; ``best_rows`` rides along (None on the same paths)."""

    def forward(self, cost, rows):
        n = cost.shape[0]
        taken = torch.zeros(n, dtype=torch.bool)
        total = torch.zeros(())
        picks = []
        for _ in range(n - 1):
            best, best_cost, best_rows = -1, None, None
            for j in range(n):
                if taken[j]:
                    continue
                c = total + cost[j] * rows[j]
                if best_cost is None or c < best_cost:
                    best, best_cost, best_rows = j, c, rows[j]
            taken[best] = True
            picks.append(best_rows)
            total = best_cost
        return torch.stack(picks), total


DOUBLES = [40, 36, 20, 16]
SETUP = [60, 57, 25]


def finishing_double(rem):
    for d in DOUBLES:
        if rem == d:
            return torch.tensor(d)
    return None


def checkout(rem):
    zero = torch.tensor(0)
    d = finishing_double(rem)
    if d is not None:
        return torch.stack([d, zero]), torch.tensor(True)
    for a in SETUP:
        d = finishing_double(rem - a)
        if d is not None:
            return torch.stack([torch.tensor(a), d]), torch.tensor(True)
    return torch.zeros(2, dtype=torch.int64), torch.tensor(False)


class Checkout(nn.Module):
    """``d = finishing_double(rem)`` then ``if d is not None``: the helper's None comes from falling
    out of its loop, so the presence flag must ride on the loop's return slot."""

    def forward(self, remaining, form):
        darts, found = checkout(remaining)
        return darts, form.mean() * found.float()


class LockOnFirstStar(nn.Module):
    """`lock = None` before a loop over frames, `if lock is None: lock = c` after a tensor
    `continue` that skips frames with no star and a `break` when lost: the lock's placeholder is
    shaped by a probe."""

    def forward(self, frames):
        lock = None
        corrections = []
        for f in range(frames.shape[0]):
            c = frames[f]
            if c.sum() < 0:
                corrections.append(torch.zeros(2))
                if c.sum() < -5.0:
                    break  # lost for good
                continue
            if lock is None:
                lock = c
            corrections.append(c - lock)
        return torch.stack(corrections)


class RefillDay(nn.Module):
    """The cheapest day to refill: `best_cost` is None until a day is kept, read only behind the
    `best_day < 0` sentinel; a cheap enough day ends the search."""

    def forward(self, due):
        best_day, best_cost = -1, None
        for day in range(due.shape[0]):
            cost = (due - day).abs().sum()
            if due.min() + 2 < day:
                continue  # too late for the first refill
            if best_day < 0 or cost < best_cost:
                best_day, best_cost = day, cost
                if best_cost < 1.0:
                    break
        if best_day < 0:
            return torch.tensor(-1), torch.zeros(())
        return torch.tensor(best_day), best_cost


class PaddockRotation(nn.Module):
    """Grazing days: when the current paddock runs out, a helper picks the rested paddock with the
    most grass (`best_cover` None until one is kept, a `continue` path leaving it None), inside
    a tensor branch of the loop over days."""

    def pick(self, cover, rest, current):
        best, best_cover = -1, None
        for p in range(cover.shape[0]):
            if p == current or rest[p] < 2:
                continue
            if best < 0 or cover[p] > best_cover:
                best, best_cover = p, cover[p]
        return best

    def forward(self, cover, growth):
        cover = cover.clone()
        rest = torch.zeros(cover.shape[0], dtype=torch.long)
        current = int(torch.argmax(cover))
        where = []
        for day in range(growth.shape[0]):
            if cover[current] < 1.0:
                nxt = self.pick(cover, rest, current)
                if nxt >= 0:
                    current = nxt
            cover[current] = cover[current] - 0.7
            rest = rest + 1
            rest[current] = 0
            cover = cover + growth[day]
            where.append(torch.tensor(current))
        return cover, torch.stack(where)


class AisleSkip(nn.Module):
    """A ternary on a dynamic size giving an int or None (an aisle only in wide halls)."""

    def forward(self, x):
        n = x.shape[1]
        aisle = n // 2 if n > 16 else None
        total = x.sum(0)
        for c in range(n - 2):
            if aisle is not None and c < aisle < c + 3:
                continue
            total[c] = total[c] + x[:, c].max()
        return total


CASES = [
    Case(
        "none_before_a_helper_loop_under_a_branch_in_a_loop_body_with_a_continue",
        seeded(PaddockRotation),
        (torch.tensor([1.5, 2.0, 1.2, 0.5]), torch.tensor([0.1, 0.05, 0.2, 0.1, 0.0])),
        [
            (torch.tensor([0.5, 0.6]), torch.tensor([0.0, 0.0, 0.0])),
            (torch.tensor([3.0, 1.0, 2.5, 0.2, 2.2, 1.1]), torch.tensor([0.3, 0.1])),
        ],
        ({0: torch.export.Dim("paddocks", min=2, max=16)}, {0: torch.export.Dim("days", min=2, max=32)}),
    ),
    Case(
        "none_before_a_breaking_loop_read_only_behind_a_sentinel",
        seeded(RefillDay),
        (torch.tensor([3.0, 5.0, 4.0, 8.0]),),
        [
            (torch.tensor([0.5, 0.2]),),  # day 0 cheap enough: break
            (torch.tensor([9.0, 1.0, 7.0, 2.0, 6.0, 3.0]),),
            (torch.tensor([30.0, 31.0]),),
            (torch.tensor([-5.0, -6.0, -7.0]),),  # every day too late: no day kept
        ],
        ({0: torch.export.Dim("scripts", min=2, max=16)},),
    ),
    Case(
        "none_before_a_loop_set_on_the_first_kept_frame",
        seeded(LockOnFirstStar),
        (torch.tensor([[-1.0, -2.0], [1.0, 2.0], [3.0, 1.0]]),),
        [
            (torch.tensor([[1.0, 1.0], [2.0, 0.5]]),),
            (torch.tensor([[-1.0, -1.0], [-2.0, 0.5]]),),
            (torch.tensor([[2.0, 1.0], [-4.0, -3.0], [5.0, 5.0]]),),  # lost: break
        ],
        ({0: torch.export.Dim("frames", min=2, max=32)},),
    ),
    Case(
        "helper_returns_in_a_loop_or_none_at_its_end",
        seeded(Checkout),
        (torch.tensor(100), torch.rand(5)),
        [
            (torch.tensor(36), torch.rand(3)),  # one dart
            (torch.tensor(97), torch.rand(4)),  # two darts (57, D20)
            (torch.tensor(7), torch.rand(6)),  # no checkout: every helper call falls out of its loop
            (torch.tensor(200), torch.rand(2)),  # no checkout
        ],
        (None, {0: torch.export.Dim("throws", min=2, max=16)}),
    ),
    Case(
        "a_none_start_tested_with_is_none_under_a_tensor_continue",
        seeded(BeamChildren),
        _rows(1.0, 3.0, 2.0, 7.0),
        [_rows(-12.0, -12.0, -12.0), _rows(-12.0, 4.0, 8.0, -1.0), _rows(9.0, -8.0, 1.0)],
        ({0: torch.export.Dim("beams", min=3, max=16)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_none_start_tested_with_is_not_none_in_a_dynamic_loop",
        seeded(BestRow),
        _rows(1.0, 3.0, 2.0, 7.0),
        [_rows(-12.0, -12.0, -12.0), _rows(-12.0, 4.0, 8.0, -1.0), _rows(9.0, -8.0)],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
    ),
    Case(
        "a_helper_returning_none_on_one_path_tested_by_its_caller",
        seeded(DecaySpan),
        (torch.tensor([0.0, -1.5, -2.5, 1.0]),),
        [
            (torch.zeros(5),),  # silent: early return
            (torch.tensor([0.0, 1.0, 2.0]),),  # neither crossing
            (torch.tensor([0.0, 1.0, -1.5, 3.0, 0.5]),),  # -1 only
            (torch.tensor([0.5, -3.0, 1.0]),),  # both at once
        ],
        ({0: torch.export.Dim("n", min=2, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_submodule_returning_none_or_a_pair_in_a_loop",
        seeded(Tracker),
        (torch.tensor([[0.1, 0.2, 0.3], [0.1, 0.9, 0.2], [0.3, 0.1, 0.2], [0.7, 0.1, 0.2]]),),
        [  # never seen; seen at every step
            (torch.full((3, 3), 0.1),),
            (torch.tensor([[0.1, 0.8], [0.9, 0.2]]),),
        ],
        ({0: torch.export.Dim("steps", min=2, max=16), 1: torch.export.Dim("cells", min=2, max=8)},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "values_set_to_none_beside_one_tested_with_is_none",
        seeded(CheapestJoin),
        (torch.tensor([3.0, 1.0, 4.0, 1.5, 5.0]), torch.tensor([2.0, 7.0, 1.0, 8.0, 2.5])),
        [
            (torch.tensor([2.0, 1.0]), torch.tensor([1.0, 3.0])),
            (torch.arange(1.0, 9.0), torch.arange(8.0, 0.0, -1.0)),
        ],
        ({0: torch.export.Dim("n", min=2, max=16)}, {0: torch.export.Dim("n", min=2, max=16)}),
    ),
    Case(
        "a_ternary_on_a_dynamic_size_giving_an_int_or_none",
        seeded(AisleSkip),
        (torch.randn(3, 20),),
        [
            (torch.randn(3, 20),),  # wide: the columns around the aisle skipped
            (torch.randn(3, 32),),  # the widest
            (torch.randn(3, 16),),  # not wide (16 is not > 16): no aisle
            (torch.randn(3, 4),),  # the narrowest
        ],
        ({1: torch.export.Dim("seats", min=4, max=32)},),
        constructs=("if->cond",),
    ),
]
