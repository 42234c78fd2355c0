"""Appends among other statements of a tensor `if` outside loops: the value is kept in a variable
and appended after the `if` on its test, taken before the branch runs (passes/appends.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case


class BoardThenServe(nn.Module):
    """An elevator boards at its own floor first when someone waits there (an append among the
    branch's updates, which clear the very flag it tests), then serves the other floors in a `while`
    that appends to the same list: the graph loop's rows follow the data-dependent first one."""

    def forward(self, waiting, start):
        pending = waiting > 0
        pos = int(start[0])
        served = []
        load = torch.zeros(())
        if pending[pos]:
            pending[pos] = False
            served.append(waiting[pos].float() * 2.0)
            load = load + waiting[pos]
        while pending.any():
            nxt = int(torch.nonzero(pending)[0, 0])
            pending[nxt] = False
            served.append(waiting[nxt].float() + load)
            load = load + waiting[nxt]
        return torch.stack(served), load


class TriageNote(nn.Module):
    """A note appended on either branch of a tensor `if`, with other updates on each: one append
    after the `if`, then more notes from a scan over the readings."""

    def forward(self, readings):
        notes = []
        level = readings.mean()
        if level > 1.0:
            alarm = level - 1.0
            notes.append(readings[:2] * alarm)
        else:
            alarm = torch.zeros(())
            notes.append(readings[-2:])
        for i in range(readings.shape[0]):
            notes.append(readings[i : i + 1].expand(2) + alarm)
        return torch.stack(notes), alarm


def _floors(*waiting):
    return torch.tensor(list(waiting))


class LateAlarm(nn.Module):
    """After the readings, one more alarm row is kept only when the trace ends high and its peak
    clears a second level: an append two `if`s deep, outside any loop."""

    def forward(self, x):
        alarms = [x[:2]]
        if x[-1] > 0.5:
            peak = x.max()
            if peak > 2.0:
                alarms.append(torch.stack([peak, x[-1]]))
        return torch.stack(alarms)


class StopsOrOneRow(nn.Module):
    """A dive plan, reduced: when the load is low, one safety-stop row is kept under a second test;
    otherwise a `while` appends a row per stop it waits at. The list is empty before the `if`, so
    each branch fills it its own way (a kept row, a graph loop's rows) and both cross the cond."""

    def forward(self, x):
        stops = []
        if x.sum() <= 1.0:
            if x.max() > 0.2:
                stops.append(torch.stack([x.max(), torch.tensor(3.0)]))
        else:
            level = x.sum()
            while level > 1.0:
                if level - x.min() < 2.0:
                    stops.append(torch.stack([level, x.min()]))
                level = level - 1.0
        return torch.stack(stops) if len(stops) > 0 else torch.zeros(0, 2)


class RowsOrOneEntry(nn.Module):
    """One branch appends a row per entry in a graph loop, the other appends one value to the same
    list (a copy of it: operators._fresh_args); the list crosses the cond as rows (table_outputs)."""

    def forward(self, x):
        out = []
        if x.sum() > 0:
            for i in range(x.shape[0]):
                out.append(x[i] * (i + 1))
        else:
            out.append(x.sum())
        return torch.stack(out)


class RowsOrNone(nn.Module):
    """One branch fills the list in a graph loop, the other leaves it empty: no rows on that path."""

    def forward(self, x):
        out = []
        scale = torch.ones(())
        if x.sum() > 0:
            for i in range(x.shape[0]):
                out.append(x[i] * (i + 1))
        else:
            scale = scale * 2
        total = torch.stack(out).sum() if len(out) > 0 else torch.zeros(())
        return total * scale


class SegmentsOrWhole(nn.Module):
    """A board graded per 8-column segment when it is longer than one (a loop over `width // 8`,
    then the last segment's edge when it is dark), else as one piece: a size branch whose one path
    fills the list in a loop that may run once or many times and the other appends one value."""

    def forward(self, board):
        width = board.shape[-1]
        grades = []
        if width > 8:
            n_full = width // 8
            for i in range(n_full):
                grades.append(board[:, i * 8 : (i + 1) * 8].sum())
            if board[:, n_full * 8 - 1].sum() > 3:
                grades.append(board[:, n_full * 8 - 1].sum())
        else:
            grades.append(board.sum())
        grades = torch.stack(grades)
        return grades.max(), grades


CASES = [
    Case(
        "append_among_a_branchs_updates_then_a_while_appending_to_the_same_list",
        BoardThenServe,
        (_floors(0, 2, 0, 3, 1), torch.tensor([1])),
        [
            (_floors(0, 2, 0, 3, 1, 0), torch.tensor([2])),
            (_floors(4, 0, 0), torch.tensor([0])),
            (_floors(0, 0, 5, 0), torch.tensor([1])),
            (_floors(1, 1, 1, 1, 1, 1, 1), torch.tensor([3])),
        ],
        ({0: torch.export.Dim("floors", min=2, max=32)}, None),
        constructs=("if->cond", "while->while_loop"),
    ),
    Case(
        "an_append_on_both_branches_among_other_updates",
        TriageNote,
        (torch.tensor([2.0, 1.5, 0.5, 3.0]),),
        [(torch.tensor([0.2, 0.1, 0.4]),), (torch.tensor([1.5, 2.5, 0.5, 1.0, 3.0]),)],
        ({0: torch.export.Dim("readings", min=2, max=32)},),
        constructs=("if->cond",),
    ),
    Case(
        "append_two_branches_deep_outside_loops",
        LateAlarm,
        (torch.tensor([0.1, 3.0, 0.2, 0.9]),),
        [
            (torch.tensor([0.1, 0.2, 0.3]),),  # ends low
            (torch.tensor([0.1, 0.2, 0.9]),),  # ends high, peak below the second level
            (torch.tensor([2.5, 0.2, 0.6, 0.7, 0.8]),),  # both levels cleared
        ],
        ({0: torch.export.Dim("n", min=3, max=16)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_list_empty_before_an_if_filled_by_a_kept_row_or_by_a_graph_loop",
        StopsOrOneRow,
        (torch.tensor([0.5, 1.5, 2.0]),),  # the loop: three steps, the last row kept
        [
            (torch.tensor([0.1, 0.3, 0.2]),),  # low load, the safety row kept
            (torch.tensor([0.1, 0.15, 0.1]),),  # low load, no row
            (torch.tensor([2.5, 0.2]),),  # the loop: two steps, one row kept
        ],
        ({0: torch.export.Dim("n", min=2, max=16)},),
        constructs=("if->cond", "while->while_loop"),
    ),
    Case(
        "a_list_a_graph_loop_fills_in_one_branch_and_one_append_fills_in_the_other",
        RowsOrOneEntry,
        (torch.tensor([0.5, 1.0, 2.0, 0.25]),),
        [(torch.tensor([-0.5, -1.0, 0.25]),), (torch.tensor([1.0, -0.5, 0.75, 0.5, 2.0, 1.0]),)],
        ({0: torch.export.Dim("n", min=2, max=16)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_list_a_graph_loop_fills_in_one_branch_and_the_other_leaves_empty",
        RowsOrNone,
        (torch.tensor([0.5, 1.0, 2.0, 0.25]),),
        [(torch.tensor([-0.5, -1.0, 0.25]),), (torch.tensor([1.0, -0.5, 0.75, 0.5, 2.0, 1.0]),)],
        ({0: torch.export.Dim("n", min=2, max=16)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_size_branch_filling_a_list_in_a_loop_over_a_derived_size_or_appending_once",
        SegmentsOrWhole,
        (torch.arange(40.0).reshape(2, 20) / 10,),  # two segments, the edge kept (its sum 5.0)
        [
            (torch.ones(2, 5),),  # one piece
            (torch.ones(2, 9),),  # one segment, the edge not kept (2.0)
            (torch.arange(34.0).reshape(2, 17),),  # two segments, the edge kept
            (torch.arange(128.0).reshape(2, 64) / 70,),  # eight segments, the edge not kept
        ],
        ({1: torch.export.Dim("w", min=2, max=64)},),
        constructs=("if->where",),
    ),
]
