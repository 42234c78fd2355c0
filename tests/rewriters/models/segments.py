"""Segments pooled as they close: a list of the current segment's rows, stacked and pooled (by a
helper with a branch on the segment's length) when a boundary or the length limit closes it, then
reset; a last open segment is pooled after the loop under ``if current:``."""

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
]
