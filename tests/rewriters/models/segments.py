"""Segments pooled as they close: a list of the current segment's rows, stacked and pooled (by a
helper with a branch on the segment's length) when a boundary or the length limit closes it, then
reset; a last open segment is pooled after the loop under ``if current:`` (or ``if len(members) > 0:``,
with a helper returning an ``or`` of tests deciding where a segment closes). Sections between sign
changes: ``bounds = [0] + [int(c) for c in crossings] + [n]`` of a nonzero's positions, a loop over
them skipping slivers, a helper with an early return per section."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


def _pool(rows):
    if rows.shape[0] == 1:
        return rows[0]
    weights = torch.softmax(rows.sum(-1), dim=0)
    return (weights[:, None] * rows).sum(0)


class SegmentPooler(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x, marks):
        segments = []
        current = []
        for i in range(x.shape[0]):
            current.append(self.proj(x[i]))
            if marks[i] > 0.5 or len(current) >= 4:
                segments.append(_pool(torch.stack(current)))
                current = []
        if current:
            segments.append(_pool(torch.stack(current)))
        return torch.stack(segments)


def _tokens(n: int, seed: int, marks: list[int] | None = None) -> tuple:
    g = torch.Generator().manual_seed(seed)
    flags = torch.zeros(n)
    for i in marks or []:
        flags[i] = 1.0
    return torch.randn(n, 3, generator=g), flags


_N = torch.export.Dim("tokens", min=2, max=64)


class BurstGrouper(nn.Module):
    """Events grouped into bursts: ``splits`` returns ``gap > 1 or jump > 2`` (an ``or`` of tests in
    a helper's `return`); the burst left after the loop is summarised under ``if len(members) > 0``
    (no member at all when every event is weak)."""

    def splits(self, e, last):
        return e[0] - last[0] > 1.0 or (e[1] - last[1]).abs() > 2.0

    def summary(self, members):
        rows = torch.stack(members)
        return torch.stack([rows[0, 0], rows[-1, 0], rows[:, 1].mean()])

    def forward(self, events):
        bursts, members = [], []
        for i in range(events.shape[0]):
            e = events[i]
            if e[2] < 0.5:
                continue
            if len(members) > 0 and self.splits(e, members[-1]):
                bursts.append(self.summary(members))
                members = []
            members.append(e)
        if len(members) > 0:
            bursts.append(self.summary(members))
        if len(bursts) == 0:
            return torch.zeros(0, 3)
        return torch.stack(bursts)


class PositiveMean(nn.Module):
    """``if len(sel) > 0: outs.append(sel.mean())`` with ``sel`` a tensor (a masked selection), not a
    list: the test stays a comparison of its length."""

    def forward(self, x):
        outs = [x.sum()]
        sel = x[x > 0]
        if len(sel) > 0:
            outs.append(sel.mean())
        return torch.stack(outs)


def _events(*rows):
    return torch.tensor(rows, dtype=torch.float32)


class SectionCosts(nn.Module):
    """Sections between the sign changes of a running sum (a mass-haul diagram's balance points)."""

    def cost(self, net, start, end):
        seg = net[start:end]
        moved = seg.clamp(min=0).sum()
        haul = torch.tensor(0.5 * (end - start) * 20.0)
        if haul > 80.0:
            return moved * 9.5
        return moved * 3.0 + moved * haul * 0.01

    def forward(self, net):
        mass = torch.cumsum(net, 0)
        crossings = torch.nonzero((mass[1:] * mass[:-1]) < 0).flatten() + 1
        bounds = [0] + [int(c) for c in crossings] + [net.shape[0]]
        costs = []
        for j in range(len(bounds) - 1):
            if bounds[j + 1] - bounds[j] < 2:
                continue  # a sliver between two close sign changes
            costs.append(self.cost(net, bounds[j], bounds[j + 1]))
        if len(costs) == 0:
            costs.append(torch.zeros(()))
        return mass, torch.stack(costs)


CASES = [
    Case(
        "segments_stacked_pooled_and_reset_in_a_loop",
        seeded(SegmentPooler),
        _tokens(10, 0, [2, 3, 7]),
        [
            _tokens(2, 1, [1]),  # one segment, closed by the last token: nothing left open
            _tokens(3, 2),  # one open segment, pooled after the loop
            _tokens(13, 3, [0, 12]),  # a one-token segment, then the length limit closes three
            _tokens(9, 4, [1, 2, 3, 4]),
        ],
        ({0: _N}, {0: _N}),
        constructs=("for->scan",),
    ),
    Case(
        "or_of_tests_returned_by_a_helper_and_a_last_segment_under_a_length_test",
        BurstGrouper,
        (_events([0.0, 1.0, 1.0], [0.5, 1.5, 1.0], [3.0, 1.0, 1.0], [3.2, 9.0, 1.0], [3.4, 9.5, 0.2]),),
        [
            (_events([0.0, 1.0, 0.1], [0.5, 1.5, 0.2]),),  # every event weak: no burst
            (_events([0.0, 1.0, 1.0], [0.4, 1.2, 1.0], [0.8, 1.1, 1.0]),),  # one burst
            (_events([0.0, 1.0, 1.0], [5.0, 1.0, 1.0], [9.0, 1.0, 0.1], [10.0, 8.0, 1.0]),),
        ],
        ({0: torch.export.Dim("events", min=2, max=32)},),
    ),
    Case(
        "a_length_test_of_a_tensor_guarding_an_append",
        PositiveMean,
        (torch.tensor([1.0, -2.0, 3.0]),),
        [(-torch.ones(4),), (torch.arange(1.0, 9.0),)],
        ({0: torch.export.Dim("n", min=2, max=32)},),
    ),
    Case(
        "sections_between_nonzero_positions_listed_by_a_comprehension",
        SectionCosts,
        (torch.tensor([1.0, 2.0, -5.0, -1.0, 4.0, 3.0, 1.0, 1.0, 1.0, 1.0, -20.0, 2.0]),),
        [
            (torch.tensor([1.0, 2.0, 0.5]),),  # no sign change: one section
            (torch.tensor([1.0, -3.0, 5.0]),),  # slivers only
            (torch.tensor([2.0, 1.0, 1.0, 1.0, 1.0, 1.0, -9.0, -1.0, 1.0, 1.0]),),  # a long haul, a short one
            (torch.tensor([-1.0, 3.0, -4.0, 2.0, 2.0, -0.5, -6.0, 1.0]),),
        ],
        ({0: torch.export.Dim("stations", min=3, max=64)},),
        constructs=("for->while_loop", "if->cond"),
    ),
]
