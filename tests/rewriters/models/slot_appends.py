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


class WeightedKeptFrames(nn.Module):
    """Frames outside an exposure range are skipped; the kept frames and their scores, appended
    side by side, are combined row by row (one length for both lists)."""

    def forward(self, burst):
        kept = []
        scores = []
        for i in range(burst.shape[0]):
            frame = burst[i]
            if frame.mean() < 0.25 or frame.mean() > 0.75:
                continue
            kept.append(frame)
            scores.append(frame.var())
        if len(kept) == 0:
            return burst.mean(0)
        weights = torch.softmax(torch.stack(scores), dim=0)
        return (weights.view(-1, 1) * torch.stack(kept)).sum(0)


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
    Case(
        "two_lists_appended_side_by_side_on_the_iterations_a_continue_does_not_skip",
        WeightedKeptFrames,
        (torch.linspace(0.0, 1.0, 30).reshape(5, 6),),
        [
            (torch.full((3, 6), 0.9),),
            (torch.linspace(0.3, 0.7, 24).reshape(4, 6),),
            (torch.linspace(0.0, 1.0, 54).reshape(9, 6),),
        ],
        ({0: torch.export.Dim("frames", min=2, max=32)},),
        constructs=("for->scan",),
    ),
]
