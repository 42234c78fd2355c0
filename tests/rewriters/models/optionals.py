"""``best = None`` ... ``if best is None or s > best``: a value that is None on one path and a
tensor on another, which a torch.cond cannot merge without a presence flag."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class BeamChildren(nn.Module):
    """Three candidate beams (a static loop), skipped by a tensor ``continue`` when out of range;
    the best score starts as None, and no candidate at all falls back to the mean."""

    def forward(self, x):
        best, best_i = None, torch.zeros((), dtype=torch.int64)
        for c in range(3):
            s = x[c].sum()
            if s < -5.0:
                continue
            if best is None or s > best:
                best, best_i = s, torch.tensor(c)
        if best is None:
            return x.mean(), best_i
        return best, best_i


class BestRow(nn.Module):
    """The same search over every row of a dynamic number of rows."""

    def forward(self, x):
        best = None
        for i in range(x.shape[0]):
            s = x[i].sum()
            if s < -5.0:
                continue
            if best is not None and s <= best:
                continue
            best = s
        if best is None:
            return x.mean()
        return best * 2.0


def _rows(*sums: float) -> tuple:
    return (torch.tensor([[v / 4.0] * 4 for v in sums]),)


CASES = [
    Case(
        "a_none_start_tested_with_is_none_under_a_tensor_continue",
        seeded(BeamChildren),
        _rows(1.0, 3.0, 2.0, 7.0),
        [_rows(-12.0, -12.0, -12.0), _rows(-12.0, 4.0, 8.0, -1.0), _rows(9.0, -8.0, 1.0)],
        ({0: torch.export.Dim("beams", min=3, max=16)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_none_start_tested_with_is_not_none_in_a_dynamic_loop",
        seeded(BestRow),
        _rows(1.0, 3.0, 2.0, 7.0),
        [_rows(-12.0, -12.0, -12.0), _rows(-12.0, 4.0, 8.0, -1.0), _rows(9.0, -8.0)],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
    ),
]
