"""The truth value of a list a converted loop filled (`torch.stack(keep) if keep else ...`,
`if not hits:`): its length > 0, kept symbolic when the length is data-dependent; `bool(a and b)` of
tensor tests; ``all(state[o] == 0 for o in ...)`` over a generator of tensor tests, also over the
numbers a comprehension keeps by a tensor test (``[l for l in range(4) if l != PAIR[leg]]`` with
``leg`` a graph loop's counter); ``big and depth < limit`` where the Python test is false (a helper
recursing on halves down to a depth limit: no branch traced past the limit)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class KeptPositions(nn.Module):
    """Top-k positions whose value is positive (k = min(3, n)); empty when none is."""

    def forward(self, x):
        k = min(3, x.shape[0])
        ranked = x[:, 0] + 1e-3 * torch.arange(x.shape[0])  # no ties, whatever the input
        vals, idx = ranked.topk(k)
        keep = []
        for j in range(k):
            if vals[j] > 0:
                keep.append(idx[j])
        kept = torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long)
        if not keep:
            return kept, torch.zeros(())
        return kept, x[:, 1].sum()


class LevelPointsFlag(nn.Module):
    """A flag a loop carries, set by `bool()` of an `and` of tensor tests (a scoreboard's "deuce")."""

    def forward(self, winners):
        score = torch.zeros(2, dtype=torch.long)
        level = False
        after_level = torch.zeros((), dtype=torch.long)
        for i in range(winners.shape[0]):
            score = score + torch.nn.functional.one_hot(winners[i], 2)
            if level:
                after_level = after_level + 1
            level = bool(score[0] == score[1] and score[0] >= 2)
        return score, after_level


class DefaultWhenNoneKept(nn.Module):
    """`if not kept: kept.append(default)` after a loop kept a data-dependent number of values."""

    def forward(self, x):
        kept = []
        for i in range(x.shape[0]):
            if x[i, 0] > 0:
                kept.append(x[i, 0] * 2)
        if not kept:
            kept.append(torch.zeros(()))
        stacked = torch.stack(kept)
        return stacked, stacked.shape[0] + x[:, 1].sum()


def _x(values):
    x = torch.zeros(len(values), 2)
    x[:, 0] = torch.tensor(values)
    x[:, 1] = torch.arange(len(values), dtype=torch.float32)
    return (x,)


def _fits(size, row, ease):
    chest_ok = size[0] + ease <= row[0]
    waist_ok = size[1] + 0.5 * ease <= row[1]
    hip_ok = size[2] <= row[2] + 2.0
    return chest_ok and (waist_ok or hip_ok)


class FirstFittingRow(nn.Module):
    """A helper returning `a and (b or c)` of names holding tests, called in a loop over chart rows
    with `not _fits(...) and ...`: the return is a truth value, not Python's `and` of tensors."""

    def __init__(self):
        super().__init__()
        self.register_buffer(
            "chart", torch.tensor([[88.0, 74.0, 92.0], [100.0, 86.0, 104.0], [112.0, 98.0, 116.0]])
        )

    def forward(self, sizes):
        out = []
        for b in range(sizes.shape[0]):
            choice = torch.tensor(-1.0)
            for s in range(self.chart.shape[0]):
                if sizes[b, 0] + 4.0 > self.chart[s, 0]:
                    continue
                choice = torch.tensor(float(s))
                if not _fits(sizes[b], self.chart[s], 4.0) and s + 1 < self.chart.shape[0]:
                    choice = torch.tensor(float(s + 1))
                break
            out.append(choice)
        return torch.stack(out)


class LegLatch(nn.Module):
    """A leg lifts (state 1) on low force only while every other leg is down; a high force puts it
    down again."""

    def forward(self, force):
        state = [0, 0, 0, 0]
        out = []
        for t in range(force.shape[0]):
            for leg in range(4):
                if force[t, leg] < 1.0 and all(state[o] == 0 for o in range(4) if o != leg):
                    state[leg] = 1
                elif force[t, leg] > 2.0:
                    state[leg] = 0
            out.append(torch.tensor(state))
        return torch.stack(out)


PAIR = {0: 3, 3: 0, 1: 2, 2: 1}


class PairedLegLatch(nn.Module):
    """As LegLatch, but a leg lifts while the legs outside its pair are down, and a step stops at
    the second overloaded leg (a tensor `break`: the leg is the loop's tensor counter)."""

    def others_down(self, state, leg):
        others = [o for o in range(4) if o != leg and o != PAIR[leg]]
        return all(state[o] == 0 for o in others)

    def forward(self, force):
        state = [0, 0, 0, 0]
        out = []
        for t in range(force.shape[0]):
            heavy = 0
            for leg in range(4):
                if force[t, leg] < 1.0 and self.others_down(state, leg):
                    state[leg] = 1
                elif force[t, leg] > 2.0:
                    state[leg] = 0
                    heavy += 1
                    if heavy >= 2:
                        break
            out.append(torch.tensor(state))
        return torch.stack(out)


class HalvingCost(nn.Module):
    """A cost that splits a job in two while it is large, at most three levels deep."""

    def cost(self, job, depth):
        if job.sum() > 8.0 and depth < 3:
            return 2.0 * self.cost(job / 2.0, depth + 1) + 0.1
        return job.square().mean()

    def forward(self, jobs):
        return torch.stack([self.cost(jobs[i], 0) for i in range(jobs.shape[0])])


CASES = [
    Case(
        "helper_returning_an_and_of_names_holding_tests",
        seeded(FirstFittingRow),
        (torch.tensor([[80.0, 70.0, 90.0], [90.0, 95.0, 110.0], [120.0, 100.0, 120.0]]),),
        [(torch.tensor([[85.0, 80.0, 100.0], [95.0, 84.0, 99.0]]),)],
        ({0: torch.export.Dim("shoppers", min=2, max=16)},),
    ),
    Case(
        "truth_of_a_list_a_loop_filled",
        seeded(KeptPositions),
        _x([0.5, -0.2, 0.9, 0.1, -0.7]),
        [
            _x([-0.5, -0.2, -0.9, -0.1]),
            _x([0.3, 0.8, -0.6, 0.2, 0.4, -0.1, 0.6]),
            _x([-0.4, 0.7, -0.3, -0.8]),
        ],
        ({0: torch.export.Dim("items", min=4, max=32)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "bool_of_an_and_of_tensor_tests_in_a_loop",
        seeded(LevelPointsFlag),
        (torch.tensor([0, 1, 1, 0, 0, 1, 1]),),
        [(torch.tensor([0, 0, 0]),), (torch.tensor([1, 0, 0, 1, 1, 0, 1, 1]),), (torch.tensor([0, 1]),)],
        ({0: torch.export.Dim("points", min=2, max=32)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "a_default_appended_when_a_loop_kept_nothing",
        seeded(DefaultWhenNoneKept),
        _x([0.5, -0.2, 0.9, 0.1]),
        [_x([-0.5, -0.2, -0.9]), _x([0.3, -0.8, 0.6, 0.2, -0.4, 0.7]), _x([-0.4, 0.7])],
        ({0: torch.export.Dim("items", min=2, max=32)},),
        constructs=("for->scan",),
    ),
    Case(
        "all_of_a_generator_of_tensor_tests_in_a_loop",
        seeded(LegLatch),
        (torch.tensor([[0.5, 3.0, 3.0, 3.0], [0.5, 0.5, 3.0, 3.0], [3.0, 0.5, 3.0, 3.0]]),),
        [
            (torch.tensor([[3.0, 3.0, 3.0, 3.0], [0.5, 0.5, 0.5, 0.5]]),),
            (3 * torch.rand(9, 4, generator=torch.Generator().manual_seed(7)),),
        ],
        ({0: torch.export.Dim("t", min=2, max=16)},),
        constructs=("for->scan",),
    ),
    Case(
        "all_over_the_numbers_a_comprehension_kept_by_a_tensor_test",
        seeded(PairedLegLatch),
        (torch.tensor([[0.5, 3.0, 3.0, 0.5], [0.5, 0.5, 3.0, 3.0], [3.0, 0.5, 0.5, 3.0]]),),
        [
            (torch.tensor([[3.0, 3.0, 3.0, 3.0], [0.5, 0.5, 0.5, 0.5]]),),
            (3 * torch.rand(11, 4, generator=torch.Generator().manual_seed(3)),),
        ],
        ({0: torch.export.Dim("t", min=2, max=16)},),
        constructs=("for->scan",),
    ),
    Case(
        "recursion_under_a_tensor_test_and_a_depth_limit",
        seeded(HalvingCost),
        (torch.tensor([[1.0, 2.0], [30.0, 40.0], [5.0, 4.0]]),),
        [
            (torch.tensor([[1.0, 1.0], [2.0, 1.0]]),),  # no split
            (torch.tensor([[300.0, 400.0], [6.0, 5.0]]),),  # split down to the depth limit
        ],
        ({0: torch.export.Dim("jobs", min=2, max=8)},),
    ),
]
