"""A helper that appends to a list its caller passed (``segments.append(...)`` under a tensor `if`),
called from a loop's branches and once after it: its body is inlined (passes/inline_helpers.py).
A helper that stores into a tensor its caller passed (``visible[r, c] = 1.0``), with a `while` of
its own and a `return` inside it, called as a statement in a loop over a dynamic size: the caller
sees the stores (passes/argument_updates.py). The same for a method and a submodule's forward whose
value is assigned (``cash = self.pay(cash, bins)``), storing into a list the caller passed; and one
assigned to the list itself (``xs = self.fill(xs, v)``), where the name takes the returned value.
And one called in an `if` test (``if not share_out(level, ...): missed += 1``) whose body ends in an
if/elif/else with a `return False` and then `return True`."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

WIDTH = torch.export.Dim("width", min=2, max=24)


def light_column(grid, lit, c, limit):
    """Light column ``c`` from the top until a wall or ``limit`` cells; the wall is lit too."""
    r = 0
    while grid[r, c] < 0.5:
        lit[r, c] = 1.0
        r += 1
        if r >= limit:
            return
    lit[r, c] = 0.5


class ColumnLighting(nn.Module):
    def forward(self, grid):
        lit = torch.zeros_like(grid)
        for c in range(grid.shape[1]):
            light_column(grid, lit, c, grid.shape[0])
        return lit, lit.sum()


class Segmenter(nn.Module):
    """Splits a signal into runs above a level; a run long enough is kept as (mean, length)."""

    def __init__(self, min_len=2):
        super().__init__()
        self.min_len = min_len

    def close_run(self, runs, x, start, end, scale=1.0):
        if end - start >= self.min_len:
            length = torch.tensor(float(end - start))
            runs.append(torch.stack([x[start:end].mean() * scale, length]))

    def forward(self, x):
        runs = []
        start, inside = 0, False
        for i in range(x.shape[0]):
            if x[i] > 0.5:
                if not inside:
                    start, inside = i, True
            elif inside:
                self.close_run(runs, x, start, i)
                inside = False
        if inside:
            self.close_run(runs, x, start, x.shape[0])
        if len(runs) == 0:
            return torch.zeros(1, 2)
        return torch.stack(runs)


class FeeCollector(nn.Module):
    """Takes each fee from the cash in turn, recording what is still owed (stores into ``owed``)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("fees", torch.tensor([0.5, 1.5]))

    def forward(self, cash, owed):
        for k in range(len(owed)):
            taken = torch.minimum(cash, self.fees[k] + owed[k])
            owed[k] = self.fees[k] + owed[k] - taken
            cash = cash - taken
        return cash


class BinFiller(nn.Module):
    """Each arrival pays fees, then fills bins in order until its cash runs out."""

    def __init__(self):
        super().__init__()
        self.fees = FeeCollector()

    def fill(self, cash, bins):
        for k in range(len(bins)):
            put = torch.minimum(cash, 4.0 - bins[k])
            bins[k] = bins[k] + put
            cash = cash - put
            if cash <= 0:
                break
        return cash

    def forward(self, arrivals):
        bins = [torch.tensor(0.0), torch.tensor(1.0)]
        owed = [torch.tensor(0.0), torch.tensor(0.0)]
        left = []
        for t in range(arrivals.shape[0]):
            cash = self.fees(arrivals[t], owed)
            if cash > 0:
                cash = self.fill(cash, bins)
            left.append(cash)
        return torch.stack(left), torch.stack(bins), torch.stack(owed)


class RefillThenReset(nn.Module):
    """A helper adds to each entry of the list it is given and returns a new list of zeros, which
    the caller keeps (the entries it added to are dropped)."""

    def fill(self, xs, v):
        for k in range(len(xs)):
            xs[k] = xs[k] + v
        return [x * 0 + k for x in xs]

    def forward(self, x):
        xs = [torch.tensor(1.0), torch.tensor(2.0)]
        out = []
        for t in range(x.shape[0]):
            if x[t] > 0:
                xs = self.fill(xs, x[t])
            out.append(xs[0] + xs[1] + x[t])
        return torch.stack(out)


def _grid(rows, walls):
    g = torch.zeros(rows, len(walls))
    for c, r in enumerate(walls):
        if r is not None:
            g[r, c] = 1.0
    return (g,)


def share_out(level, demand, closed, j):
    """Hand bin j's demand to its open neighbours; False when both are closed."""
    n = closed.shape[0]
    below = j > 0 and not closed[j - 1]
    above = j < n - 1 and not closed[j + 1]
    if below and above:
        level[j - 1] += 0.5 * demand[j]
        level[j + 1] += 0.5 * demand[j]
    elif below or above:
        level[j - 1 if below else j + 1] += demand[j]
    else:
        return False
    return True


class ClosedBins(nn.Module):
    """Demand of closed bins (negative capacity) moved to open neighbours, counting what is missed."""

    def forward(self, capacity, demand):
        closed = capacity < 0
        level = torch.where(closed, torch.zeros_like(demand), demand)
        where = torch.nonzero(closed).flatten()
        missed = 0
        for k in range(where.shape[0]):
            if not share_out(level, demand, closed, int(where[k])):
                missed += 1
        return level, torch.tensor(missed)


def _bins(n: int, closed: tuple) -> tuple:
    capacity = torch.ones(n)
    capacity[list(closed)] = -1.0
    return capacity, torch.arange(1.0, n + 1.0)


CASES = [
    Case(
        "helper_storing_into_its_argument_in_a_loop",
        seeded(ColumnLighting),
        _grid(5, [2, None, 0, 4, 1]),  # walls at several depths, one open column
        [_grid(5, [None, None]), _grid(5, [0, 3]), _grid(5, [1, None, 2, 0, None, 1, 2, None])],
        ({1: WIDTH},),
        constructs=("for->while_loop",),
    ),
    Case(
        "helper_appending_to_its_list_argument_in_a_loop",
        seeded(Segmenter),
        (torch.tensor([0.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.9, 0.8]),),
        [
            (torch.zeros(4),),  # no run: an empty list
            (torch.tensor([1.0, 0.0, 1.0, 0.0]),),  # runs too short to keep
            (torch.tensor([0.0, 0.7, 0.9, 0.6, 0.8]),),  # one run, still open at the end
            (torch.tensor([0.9, 0.9, 0.0, 0.0, 0.6, 0.7, 0.2, 0.9, 0.9, 0.9]),),  # several runs
        ],
        ({0: torch.export.Dim("n", min=2, max=32)},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "a_method_and_a_submodule_storing_into_lists_their_assigned_caller_passed",
        seeded(BinFiller),
        (torch.tensor([2.0, 4.0, 1.0, 3.0]),),
        [(torch.tensor([9.0, -1.0]),), (torch.tensor([0.5, 1.0, 6.0, 0.2, 3.0, 1.0, 1.0, 1.0, 9.0]),)],
        ({0: torch.export.Dim("n", min=2, max=16)},),
        constructs=("for->scan",),
    ),
    Case(
        "a_helper_storing_into_the_list_its_value_is_assigned_to",
        seeded(RefillThenReset),
        (torch.tensor([1.0, -1.0, 2.0]),),
        [(torch.tensor([-1.0, 3.0, 1.0, -2.0]),), (torch.tensor([-1.0, -2.0]),)],
        ({0: torch.export.Dim("n", min=2, max=8)},),
        constructs=("for->scan",),
    ),
    Case(
        "a_helper_storing_into_an_argument_called_in_an_if_test_in_a_loop",
        seeded(ClosedBins),
        _bins(10, (3, 7)),
        [_bins(2, ()), _bins(12, (0, 5, 6, 11)), _bins(6, (1, 2, 3))],  # ends, a pair, a run of three
        ({0: WIDTH}, {0: WIDTH}),
        constructs=("for->while_loop", "if->cond"),
    ),
]
