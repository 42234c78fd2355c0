"""A helper returning from inside its loop over a list that may be empty (the positions of a
mask): the value the `return` gives is a placeholder until it runs, so a loop that runs 0 times
returns what follows the loop. Also a helper whose loop over a Python range returns early, called
in a branch of a loop body (its result slots are probed inside the body dynamo traces)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

BINS = torch.export.Dim("bins", min=2, max=32)


def first_heavy(route, weights, limit):
    for j in route:
        if weights[j] > limit:
            return j
    return torch.tensor(-1)


class HeavyOnRoute(nn.Module):
    """The first bin on the route (bins with a positive demand) heavier than 3."""

    def forward(self, demand, weights):
        route = torch.nonzero(demand > 0).view(-1)
        return first_heavy(route, weights, 3.0)


def first_unseen(avail, groups, seen):
    for j in avail:
        if not seen[groups[j]]:
            return j
    return avail[0]


class PickUnseenGroups(nn.Module):
    """Up to `count` picks, best first, preferring a group not yet picked; stops when nothing is left.
    The helper runs only while rows remain: its fallback `avail[0]` must not run on an empty selection
    (a placeholder for the picked value must not compute the helper on the path that skips it)."""

    def forward(self, scores, groups, count):
        order = scores.argsort(descending=True)
        taken = torch.zeros(scores.shape[0], dtype=torch.bool)
        seen = torch.zeros(3, dtype=torch.bool)
        picks = []
        for _ in range(int(count.item())):
            avail = order[~taken[order]]
            if avail.shape[0] == 0:
                break
            j = first_unseen(avail, groups, seen)
            picks.append(j)
            taken = taken | (torch.arange(scores.shape[0]) == j)
            seen = seen | (torch.arange(3) == groups[j])
        if len(picks) == 0:
            return torch.zeros(0, dtype=torch.long)
        return torch.stack(picks)


def piecewise(c, table):
    for r in range(table.shape[0]):
        if c <= table[r, 1]:
            c_lo, c_hi, i_lo, i_hi = table[r].unbind(0)
            return (i_hi - i_lo) / (c_hi - c_lo) * (c - c_lo) + i_lo
    return torch.full((), 500.0)


class PiecewiseIndex(nn.Module):
    """A breakpoint table's linear interpolation: the values the `return` reads are unpacked just
    before it, in the loop body (they have no value before the loop nor on the rows skipped)."""

    def __init__(self):
        super().__init__()
        self.register_buffer(
            "table", torch.tensor([[0.0, 12.0, 0, 50], [12.1, 35.4, 51, 100], [35.5, 55.4, 101, 150]])
        )

    def forward(self, reading):
        return torch.stack([piecewise(reading[0], self.table), piecewise(reading[1], self.table)])


def _picks(scores, groups, count):
    return torch.tensor(scores), torch.tensor(groups), torch.tensor(count)


def _bins(demand, weights):
    return torch.tensor(demand), torch.tensor(weights)


def _mismatch_score(guide, site, limit: int):
    score, mismatches = torch.ones(()), 0
    for pos in range(5, -1, -1):
        if (site[pos] * guide[pos]).sum() > 0.5:
            continue
        mismatches += 1
        score = score * 0.5
        if mismatches > limit:
            return torch.zeros(()), mismatches
    return score, mismatches


class SiteScores(nn.Module):
    """Each candidate site scored by a helper that gives up after too many mismatches."""

    def forward(self, guide, sites):
        scores = []
        for k in range(sites.shape[0]):
            site = sites[k]
            factor = 1.0 if site[6, 2] > 0.5 else 0.25
            score, mismatches = _mismatch_score(guide, site, 2)
            if mismatches == 0:
                scores.append(torch.zeros(()))
                continue
            scores.append(score * factor)
        return torch.stack(scores)


def _sites(rows: list[list[int]], pams: list[int]) -> tuple:
    guide = torch.nn.functional.one_hot(torch.tensor([0, 1, 2, 3, 0, 1]), 4).float()
    sites = torch.nn.functional.one_hot(torch.tensor([r + [p] for r, p in zip(rows, pams)]), 4).float()
    return guide, sites


class MeterFit(nn.Module):
    """Per pattern a helper scans the marks foot by foot and gives up (``return None, 0``) once the
    mismatches pass a limit; the caller tests ``ratio is None``."""

    patterns = ((0, 1), (1, 0), (0, 0, 1))

    def scan(self, marks, pattern):
        miss, feet = 0, 0
        for start in range(0, marks.shape[0], len(pattern)):
            for k, want in enumerate(pattern):
                if start + k < marks.shape[0] and marks[start + k] != want:
                    miss += 1
            feet += 1
            if miss > 2:
                break
        else:
            return miss / marks.shape[0], feet
        return None, 0

    def forward(self, x):
        marks = (x > 0.5).long()
        ratios, feet = [], []
        for pattern in self.patterns:
            ratio, n_feet = self.scan(marks, pattern)
            if ratio is None:
                ratios.append(1.0)
                feet.append(0)
                continue
            ratios.append(ratio)
            feet.append(n_feet)
        return torch.tensor(ratios), torch.tensor(feet)


CASES = [
    Case(
        "helper_returning_from_a_loop_over_a_possibly_empty_list",
        seeded(HeavyOnRoute),
        _bins([1.0, -1.0, 2.0, 0.5], [1.0, 5.0, 4.0, 2.0]),
        [
            _bins([-1.0, -2.0, -0.5], [4.0, 5.0, 6.0]),
            _bins([1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 1.5, 2.5, 0.5]),
            _bins([0.5, 2.0], [3.5, 1.0]),
        ],
        ({0: BINS}, {0: BINS}),
    ),
    Case(
        "helper_with_a_fallback_row_called_only_while_rows_remain_in_an_item_loop",
        seeded(PickUnseenGroups),
        _picks([0.9, 0.5, 0.7, 0.1, 0.3], [0, 0, 1, 2, 1], 3),
        [
            _picks([0.9, 0.5], [2, 2], 4),  # runs out of rows: the helper must not run on none
            _picks([0.2, 0.8, 0.6], [1, 0, 0], 0),
            _picks([0.4, 0.1, 0.8, 0.6], [1, 1, 1, 2], 2),
        ],
        ({0: BINS}, {0: BINS}, None),
    ),
    Case(
        "return_in_a_loop_reading_values_unpacked_just_before_it",
        seeded(PiecewiseIndex),
        (torch.tensor([22.0, 6.0]),),
        [(torch.tensor([40.0, 80.0]),), (torch.tensor([1.0, 13.0]),)],
    ),
    Case(
        "early_return_of_a_python_range_loop_in_a_helper_a_branch_in_a_loop_body_calls",
        seeded(SiteScores),
        _sites([[0, 1, 2, 3, 0, 1], [0, 1, 2, 0, 0, 1], [3, 3, 3, 3, 0, 1]], [2, 0, 2]),
        [
            _sites([[0, 1, 2, 3, 0, 1], [1, 1, 2, 3, 0, 2]], [0, 2]),
            _sites(
                [[2, 2, 2, 2, 2, 2], [0, 1, 2, 3, 3, 1], [0, 1, 2, 3, 0, 1], [0, 0, 2, 3, 0, 1]], [2, 2, 0, 2]
            ),
        ],
        (None, {0: torch.export.Dim("sites", min=2, max=16)}),
        constructs=("for->scan",),
    ),
    Case(
        "a_helper_returning_none_beside_a_number_in_a_tuple_tested_is_none",
        seeded(MeterFit),
        (torch.tensor([0.1, 0.9] * 4),),  # the first pattern fits, the others give up
        [
            (torch.tensor([0.9, 0.1] * 3),),  # the second one fits
            (torch.tensor([0.1, 0.1, 0.9] * 3),),  # the third one fits
            (torch.full((8,), 0.9),),  # none fits
            (torch.tensor([0.1, 0.9, 0.1, 0.9]),),  # min size
        ],
        ({0: torch.export.Dim("n", min=4, max=24)},),
    ),
]
