"""Facts about sizes torch cannot decide: a context window that keeps the last turns of a history (a
slice whose start has an unknown sign, in a size branch a probe traces with guards suppressed), beat
intervals under ``len(peaks) >= 2`` (``diff`` of a count a loop left), ints a size branch sets, and
a count read with ``.item()`` that may be negative, tested before the loop it bounds (the test a
select: the loop's buffer must not be sized by the negative count)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

WINDOW = 12


class ContextWindow(nn.Module):
    """History and query fitted into a window: the history cut to the space left, then after its
    first separator; a probe of the outer size branch traces the cut with guards suppressed."""

    def forward(self, history, query):
        if query.shape[0] >= WINDOW:
            return query[-WINDOW:].float()
        space = WINDOW - query.shape[0]
        if history.shape[0] > space:
            history = history[-space:]
            if (history == 2).any():
                start = int((history == 2).nonzero()[0, 0].item()) + 1
                history = history[start:]
        return torch.cat([history, query]).float() * 0.5


class BeatIntervals(nn.Module):
    """Peaks picked in a loop (a data-dependent count); their intervals only when there are two."""

    def forward(self, x):
        peaks = []
        for i in range(1, x.shape[0] - 1):
            if x[i] > 0.5 and x[i] >= x[i - 1] and x[i] > x[i + 1]:
                peaks.append(i)
        if len(peaks) < 2:
            return torch.zeros(()), torch.tensor(len(peaks))
        rr = torch.tensor(peaks).diff().to(torch.float32)
        return rr.mean(), torch.tensor(len(peaks))


class DecimateLong(nn.Module):
    """A size branch that decimates long inputs and sets a Python int per path (4 or 8)."""

    def forward(self, x):
        if x.shape[0] > 16:
            x = x[::2]
            gap = 4
        else:
            gap = 8
        return x.cumsum(0) / gap, torch.zeros(gap)


def _beats(n, *positions):
    x = torch.zeros(n)
    for p in positions:
        x[p] = 1.0
    return (x,)


def _ids(*values):
    return torch.tensor(values, dtype=torch.long)


class Overbooked(nn.Module):
    """Bumps volunteers (cheapest first) up to the number of seats oversold; none when the flight
    is not full (the early return)."""

    def forward(self, asks, cabin):
        oversold = int((cabin[1] - cabin[0]).item())
        if oversold <= 0:
            return torch.zeros(asks.shape[0]), torch.zeros(1)
        order = torch.argsort(asks)
        picked = []
        for k in range(oversold):
            if asks[order[k]] > 500.0:
                break  # no volunteers left
            picked.append(order[k])
        status = torch.zeros(asks.shape[0])
        paid = torch.zeros(1)
        if picked:
            chosen = torch.stack(picked)
            status[chosen] = 1.0
            paid = paid + asks[chosen].sum()
        return status, paid + 1000.0 * (oversold - len(picked))


class PeakCell(nn.Module):
    """Where the strongest shear is, when it is strong enough: ``divmod`` of the flat argmax by the
    row length, inside a tensor `if` (a graph op's body keeps ``int(...)`` a tensor, and torch has
    no ``__divmod__``)."""

    def forward(self, v):
        shear = (v[:, 1:] - v[:, :-1]).abs()
        location = torch.tensor([-1.0, -1.0])
        if shear.max() > 2.5:
            flat = int(torch.argmax(shear))
            row, col = divmod(flat, shear.shape[1])
            location = torch.tensor([(row + 0.5) * 0.25, col + 0.5])
        return location


def _cabin(seats, checked_in, *asks):
    return torch.tensor(asks, dtype=torch.float32), torch.tensor([seats, checked_in], dtype=torch.float32)


CASES = [
    Case(
        "context_window_cut_after_a_separator",
        seeded(ContextWindow),
        (_ids(5, 6, 2, 7, 8, 9, 2, 4, 4, 3), _ids(9, 9, 9, 9, 9)),
        [
            (_ids(5, 6, 2, 7), _ids(*range(3, 16))),  # the query alone fills the window
            (_ids(5, 6, 7, 8, 9, 3, 4, 5, 6, 7), _ids(9, 9, 9)),  # cut, no separator left in it
            (_ids(5, 2), _ids(9, 9, 9)),  # everything fits
        ],
        (
            {0: torch.export.Dim("history", min=2, max=64)},
            {0: torch.export.Dim("query", min=2, max=32)},
        ),
    ),
    Case(
        "beat_intervals_of_at_least_two_peaks",
        seeded(BeatIntervals),
        _beats(24, 3, 9, 17),
        [_beats(12, 5), _beats(10), _beats(16, 2, 11)],
        ({0: torch.export.Dim("samples", min=3, max=64)},),
    ),
    Case(
        "size_branch_sets_a_python_int",
        seeded(DecimateLong),
        (torch.arange(24, dtype=torch.float32),),
        [(torch.arange(9, dtype=torch.float32),), (torch.arange(17, dtype=torch.float32),)],
        ({0: torch.export.Dim("n", min=2, max=64)},),
    ),
    Case(
        "a_run_time_count_that_may_be_negative_tested_before_the_loop_it_bounds",
        seeded(Overbooked),
        _cabin(10, 12, 900.0, 300.0, 450.0, 800.0, 200.0),
        [
            _cabin(12, 10, 900.0, 300.0, 450.0, 800.0),  # not full: negative count, early return
            _cabin(10, 10, 300.0, 900.0, 450.0),  # exactly full
            _cabin(10, 13, 900.0, 300.0, 950.0, 800.0),  # one volunteer for three seats
            _cabin(10, 14, 100.0, 300.0, 450.0, 200.0, 50.0, 10.0),  # volunteers for all
        ],
        ({0: torch.export.Dim("passengers", min=3, max=64)}, None),
    ),
    Case(
        "divmod_of_an_argmax_inside_a_tensor_branch",
        seeded(PeakCell),
        (torch.tensor([[0.0, 0.5, 0.2], [0.1, 4.0, 0.3], [0.2, 0.1, 0.0]]),),
        [
            (torch.zeros(4, 5),),  # no peak: the default
            (torch.arange(30, dtype=torch.float32).reshape(5, 6) % 7 * 0.6,),
        ],
        ({0: torch.export.Dim("rows", min=2, max=16), 1: torch.export.Dim("cols", min=3, max=16)},),
    ),
]
