"""Optionals handed to a helper that tests its parameter with ``is None``: a ternary on a dynamic
size giving an int or None (an aisle only in wide halls), and a cap that a tensor test leaves None,
beside a call passing a literal None. The caller's presence flag travels with the value
(passes/optionals.py: ``with_presence``), so the helper's ``is None`` reads it."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class AisleBlocks(nn.Module):
    """The best-scoring block of three columns; in wide halls no block may straddle the aisle."""

    def _best(self, score, aisle):
        best = score.new_full((), -1.0)
        for c in range(score.shape[0] - 2):
            if aisle is not None and c < aisle < c + 3:
                continue
            best = torch.maximum(best, score[c : c + 3].sum())
        return best

    def forward(self, x):
        n = x.shape[1]
        aisle = n // 2 if n > 8 else None
        return self._best(x.sum(0), aisle)


class CappedGains(nn.Module):
    """A cap only when the signal is loud; the helper clips to the cap when there is one."""

    def __init__(self):
        super().__init__()
        self.gain = nn.Linear(4, 4)

    def _clipped(self, y, cap):
        if cap is None:
            return y
        return torch.minimum(y, cap)

    def forward(self, x):
        peak = x.abs().max()
        cap = peak * 0.5 if peak > 2.0 else None
        y = self._clipped(self.gain(x), cap)
        return self._clipped(y * 2.0, None)


CASES = [
    Case(
        "an_int_or_none_on_a_dynamic_size_handed_to_a_helper_testing_it",
        seeded(AisleBlocks),
        (torch.arange(24.0).reshape(2, 12).sin(),),
        [
            (torch.arange(24.0).reshape(2, 12).sin(),),  # wide: blocks around the aisle skipped
            (torch.arange(12.0).reshape(2, 6).cos(),),  # narrow: no aisle
            (torch.arange(64.0).reshape(2, 32).sin(),),  # the widest
            (
                torch.tensor([[0.0, 1.0, 0.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0, 0.0]] * 2),
            ),  # the best block skipped
        ],
        ({1: torch.export.Dim("seats", min=4, max=32)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_tensor_or_none_from_a_tensor_test_handed_to_a_helper_testing_it",
        seeded(CappedGains),
        (torch.tensor([[3.0, -1.0, 0.5, 2.0], [0.1, 0.2, -4.0, 1.0]]),),
        [
            (torch.tensor([[3.0, -1.0, 0.5, 2.0], [0.1, 0.2, -4.0, 1.0]]),),  # loud: capped
            (torch.tensor([[0.3, -1.0, 0.5, 0.2], [0.1, 0.2, -0.4, 1.0]]),),  # quiet: no cap
        ],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
        constructs=("if->cond",),
    ),
]
