"""Python tables looked up at a size a converted branch set: a list indexed by the number of rounds
kept (``BEST_OF[m]``) and a dict of adjustments read with ``.get(m, 0.0)`` and ``[m]`` (Python
would hash the symbolic size)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

BEST_OF = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
ADJUST = {3: -2.0, 4: -1.0, 6: -1.0}
BONUS = {3: 1, 5: 2, 8: 3, 9: 4, 10: 5}


class BestOfRecent(nn.Module):
    """The mean of the lowest differentials among the last 10 (a handicap index)."""

    def forward(self, diffs):
        if diffs.shape[0] > 10:
            diffs = diffs[-10:]
        m = diffs.shape[0]
        best, _ = torch.sort(diffs)
        index = best[: BEST_OF[m]].mean() + ADJUST.get(m, 0.0)
        bonus = BONUS[m] if m in BONUS else 0
        return index * 2.0 + bonus


CASES = [
    Case(
        "dict_and_list_tables_read_at_a_size_a_branch_set",
        seeded(BestOfRecent),
        (torch.tensor([3.0, 9.0, 1.0, 4.0, 7.0, 2.0, 8.0, 5.0]),),
        [
            (torch.tensor([5.0, 1.0, 3.0]),),  # 3 rounds: adjusted, a bonus
            (torch.tensor([5.0, 1.0, 3.0, 2.0]),),  # 4 rounds: adjusted, no bonus
            (torch.tensor([5.0, 1.0, 3.0, 2.0, 8.0]),),  # 5: no adjustment, a bonus
            (torch.arange(14.0).flip(0),),  # more than 10: the last 10 kept
        ],
        ({0: torch.export.Dim("rounds", min=3, max=40)},),
        constructs=("ifexp->where",),
    ),
]
