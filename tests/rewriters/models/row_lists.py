"""Lists a range loop appends to and reads back in the same loop (row_lists.py): a greedy dedupe
that compares each row with the rows kept so far, a peak picker that searches back through
the candidates it rejected (a list reset when a peak is taken, read by a nested loop), and DP
rows an inner loop builds (also one appending on every path, in a loop a `return` may stop), and
a polyline simplifier run only on long inputs (under a size branch, whose new size is unbounded)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

ROWS = torch.export.Dim("rows", min=3, max=32)


class Dedupe(nn.Module):
    """Keeps a row unless it is close to one already kept; each row's kept index (or -1)."""

    def forward(self, x):
        e = torch.nn.functional.normalize(x, dim=1)
        kept_vecs, kept_idx, assign = [], [], []
        for i in range(x.shape[0]):
            if x[i].abs().sum() < 1e-3:
                assign.append(torch.tensor(-1))
                continue
            if len(kept_vecs) > 0:
                sims = torch.stack(kept_vecs) @ e[i]
                if sims.max() > 0.95:
                    assign.append(torch.stack(kept_idx)[sims.argmax()])
                    continue
            kept_vecs.append(e[i])
            kept_idx.append(torch.tensor(i))
            assign.append(torch.tensor(i))
        return torch.stack(kept_idx), torch.stack(assign)


class PeakPicker(nn.Module):
    """Peaks at least 2 apart above a threshold; a rejected candidate is taken back when the gap
    since the last peak grows past 1.5 mean intervals (searching the rejected list backwards)."""

    def forward(self, env):
        peaks, rejected = [], []
        last = torch.tensor(-10)
        for i in range(env.shape[0]):
            if i - last < 2:
                continue
            if len(peaks) >= 2 and i - last > 1.5 * (peaks[-1] - peaks[0]) / (len(peaks) - 1):
                for j in reversed(rejected):
                    if env[j] > 0.3 and j - last >= 2:
                        peaks.append(j)
                        last = j
                        break
            if env[i] > 0.6:
                peaks.append(torch.tensor(i))
                last = torch.tensor(i)
                rejected = []
            else:
                rejected.append(torch.tensor(i))
        if len(peaks) == 0:
            return torch.zeros(0, dtype=torch.long)
        return torch.stack(peaks)


class RowByRowDP(nn.Module):
    """Edit distance of `a` to the unpadded prefix of `b` (a data-dependent length): each row of
    the DP table is a list the inner loop appends to and reads back (`row[j]`), started from the
    previous row's first entry."""

    def forward(self, a, b):
        n = int((b > 0).sum().item())
        prev = torch.arange(n + 1)
        for i in range(a.shape[0]):
            row = [prev[0] + 1]
            for j in range(n):
                same = (a[i] == b[j]).long()
                row.append(torch.minimum(torch.minimum(prev[j + 1], row[j]) + 1, prev[j] + 1 - same))
            prev = torch.stack(row)
        return prev[n], prev


class FirstFitSlots(nn.Module):
    """Each request takes the first slot with room left (`slots[s] = ...`, appended to by an inner
    loop that breaks), else opens a new one (the `for ... else`)."""

    def forward(self, demand):
        slots, owner = [], []
        for k in range(demand.shape[0]):
            d = demand[k]
            for s in range(len(slots)):
                if slots[s] >= d:
                    slots[s] = slots[s] - d
                    owner.append(torch.tensor(s))
                    break
            else:
                slots.append(1.0 - d)
                owner.append(torch.tensor(len(slots) - 1))
        return torch.stack(owner), torch.stack(slots)


class FirstRiseWithin(nn.Module):
    """For each positive entry, the first of the next three that exceeds it: an inner search loop
    appends what it finds and breaks, inside an outer loop that skips entries with `continue` and
    never reads the list; the number of rows depends on the data."""

    def forward(self, x):
        n = x.shape[0]
        rises = []
        for i in range(n):
            if x[i] <= 0:
                continue
            for j in range(i + 1, min(i + 4, n)):
                if x[j] > x[i]:
                    rises.append(torch.stack([torch.tensor(float(j - i)), x[j] - x[i]]))
                    break
        if len(rises) == 0:
            return torch.zeros(0, 2)
        return torch.stack(rises) * 2


class BandedRowsUntilBudget(nn.Module):
    """Best monotone path sums, row by row, within two columns of the diagonal (a cell past the
    band copies its left neighbour and `continue`s): each row a list the inner loop appends to on
    every path and reads back (`row[j]`), stacked into the row the next one reads; a `return`
    inside the outer loop stops once a row's best exceeds a budget."""

    def forward(self, x):
        prev = torch.zeros(x.shape[1] + 1)
        for i in range(x.shape[0]):
            row = [torch.tensor(0.0)]
            for j in range(x.shape[1]):
                if j > i + 1:
                    row.append(row[j])
                    continue
                row.append(torch.maximum(prev[j + 1], row[j]) + x[i, j])
            prev = torch.stack(row)
            if prev.max() > 6.0:
                return prev, torch.tensor(1)
        return prev * 0.5, torch.tensor(0)


def _grid(rows, cols, seed, scale=1.0, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(rows, cols, generator=g) * scale + shift,)


def _ids(a, b):
    return torch.tensor(a), torch.tensor(b + [0] * (6 - len(b)))


def _rows(*rows):
    return (torch.tensor(rows, dtype=torch.float32),)


_DUP = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.99, 0.05, 0.0], [0.0, 0.0, 0.0], [0.0, 0.02, 1.0]]


def _drop_collinear(pts, tol: float):
    kept = [pts[0]]
    for i in range(1, pts.shape[0] - 1):
        a, b, c = kept[-1], pts[i], pts[i + 1]
        ab, bc = b - a, c - b
        if (ab[0] * bc[1] - ab[1] * bc[0]).abs() < tol * ab.norm() * bc.norm():
            continue  # b lies on the line a-c
        kept.append(b)
    kept.append(pts[-1])
    return torch.stack(kept)


class SimplifiedWhenLong(nn.Module):
    """Only paths of more than 8 points are simplified: the loop reads back the last kept point."""

    def forward(self, pts):
        if pts.shape[0] > 8:
            pts = _drop_collinear(pts, 1e-3)
        return pts.sum(0), pts[-1]


def _polyline(n: int, seed: int, straight: bool = False):
    g = torch.Generator().manual_seed(seed)
    pts = torch.randn(n, 2, generator=g)
    if straight:
        pts[: n // 2, 1] = 0.0  # the first half on one line: its inner points dropped
        pts[: n // 2, 0] = torch.arange(n // 2, dtype=torch.float32)
    return (pts,)


CASES = [
    Case(
        "list_rows_replaced_and_appended_by_a_nested_loop",
        seeded(FirstFitSlots),
        (torch.tensor([0.5, 0.7, 0.2, 0.4, 0.3]),),
        [
            (torch.tensor([0.9, 0.8]),),
            (torch.tensor([0.1, 0.2, 0.3, 0.35]),),
            (torch.tensor([0.6, 0.6, 0.3, 0.9, 0.1, 0.4]),),
        ],
        ({0: torch.export.Dim("requests", min=2, max=32)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "dp_row_lists_built_by_an_inner_loop_over_a_data_dependent_length",
        seeded(RowByRowDP),
        _ids([3, 1, 4, 1, 5], [3, 4, 1, 5]),
        [
            _ids([2, 7], []),
            _ids([1, 2, 3], [1]),
            _ids([9, 9, 9, 9], [9, 1, 9, 1, 9, 1]),
            _ids([5, 6, 7], [6, 7]),
        ],
        ({0: torch.export.Dim("a_len", min=2, max=16)}, None),
        constructs=("for->while_loop",),
    ),
    Case(
        "row_list_appended_on_every_path_in_a_loop_with_a_return",
        seeded(BandedRowsUntilBudget),
        _grid(4, 5, 0, 0.5),
        [_grid(3, 3, 1, 0.3), _grid(6, 4, 2, 0.5, 1.0), _grid(2, 7, 3)],
        ({0: torch.export.Dim("grid_rows", min=2, max=16), 1: torch.export.Dim("grid_cols", min=2, max=16)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "list_read_back_in_the_loop_that_appends_to_it",
        seeded(Dedupe),
        _rows(*_DUP),
        [_rows(*_DUP[:3]), _rows([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 0.0]), _rows(*(_DUP * 2))],
        ({0: ROWS},),
        constructs=("for->scan",),
    ),
    Case(
        "list_reset_and_searched_backwards_in_its_loop",
        seeded(PeakPicker),
        (torch.tensor([0.9, 0.1, 0.2, 0.4, 0.1, 0.2, 0.1, 0.35, 0.1, 0.2, 0.7, 0.1]),),
        [
            (torch.tensor([0.1, 0.2, 0.1, 0.2]),),
            (torch.tensor([0.7, 0.1, 0.1, 0.8, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.9]),),
            (torch.tensor([0.9, 0.1, 0.5, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),),
            (torch.tensor([0.9, 0.1, 0.9, 0.1, 0.1, 0.4, 0.1, 0.1, 0.1, 0.1, 0.7, 0.1]),),
        ],
        ({0: torch.export.Dim("samples", min=4, max=64)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "list_appended_only_by_a_search_loop_nested_in_a_skipping_loop",
        seeded(FirstRiseWithin),
        (torch.tensor([0.5, 0.2, 0.9, -0.1, 0.3, 0.1, 0.2, 0.4]),),
        [
            (torch.tensor([-0.5, -0.2]),),
            (torch.tensor([0.9, 0.5, 0.4, 0.3, 0.2]),),
            (torch.tensor([0.1, 0.2, 0.3, -1.0, 0.5, 0.1, 0.1, 0.1, 0.6, 0.7, 0.2]),),
        ],
        ({0: torch.export.Dim("values", min=2, max=32)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "list_read_back_in_a_loop_under_a_size_branch",
        seeded(SimplifiedWhenLong),
        _polyline(6, 0),
        [_polyline(3, 1), _polyline(9, 2), _polyline(20, 3, straight=True), _polyline(32, 4)],
        ({0: ROWS},),
        constructs=("if->cond",),
    ),
]
