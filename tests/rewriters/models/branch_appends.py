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
]
