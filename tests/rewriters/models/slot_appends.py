"""Loops that append to one list more than once in an iteration: each append statement fills a slot
of its own, read back in source order after the loop (passes/continues.py, slot_lists.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case


class ClipAgainstLine(nn.Module):
    """One Sutherland-Hodgman step: a vertex entering the half-plane appends the crossing point and
    itself, one inside appends itself, one leaving appends the crossing point."""

    def forward(self, poly):
        out = []
        for i in range(poly.shape[0]):
            cur, prev = poly[i], poly[i - 1]
            cur_in, prev_in = cur[0] >= 0.0, prev[0] >= 0.0
            if cur_in:
                if not prev_in:
                    t = prev[0] / (prev[0] - cur[0])
                    out.append(prev + t * (cur - prev))
                out.append(cur)
            elif prev_in:
                t = prev[0] / (prev[0] - cur[0])
                out.append(prev + t * (cur - prev))
        out.append(poly.mean(0))
        return torch.stack(out)


class WordsAndGaps(nn.Module):
    """Decodes symbol ids from key durations: short gaps `continue`, a long gap appends the symbol
    and, when longer still, a separator too."""

    def forward(self, durations):
        code = 1
        ids = [torch.tensor(0)]
        for i in range(durations.shape[0]):
            d = durations[i]
            if i % 2 == 0:
                code = 2 * code + (d > 2.0).long()
                continue
            if d < 2.0:
                continue
            ids.append(code)
            code = torch.ones((), dtype=torch.int64)
            if d > 5.0:
                ids.append(torch.tensor(-1))
        return torch.stack(ids)


def _square(shift):
    return (torch.tensor([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [-1.5, 0.0]]) + shift,)


CASES = [
    Case(
        "a_loop_appending_twice_on_one_path_through_its_branches",
        ClipAgainstLine,
        _square(torch.tensor([0.3, 0.0])),
        [
            _square(torch.tensor([3.0, 0.0])),
            _square(torch.tensor([-3.0, 0.0])),
            (torch.tensor([[1.0, 0.0], [-1.0, 1.0], [2.0, 2.0], [-2.0, 0.5], [0.5, -1.0], [-0.5, -2.0]]),),
        ],
        ({0: torch.export.Dim("vertices", min=3, max=32)},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "a_loop_with_continue_appending_a_value_and_a_separator",
        WordsAndGaps,
        (torch.tensor([1.0, 1.0, 3.0, 3.0, 1.0, 6.0, 3.0, 1.0]),),
        [
            (torch.tensor([3.0, 6.0, 1.0, 3.0]),),
            (torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0]),),
            (torch.tensor([3.0, 3.0, 3.0, 7.0, 1.0, 1.0]),),
        ],
        ({0: torch.export.Dim("events", min=2, max=64)},),
        constructs=("for->scan", "if->cond"),
    ),
]
