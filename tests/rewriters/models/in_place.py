"""``x += 1`` on an int the converted code carries as a tensor, after a statement that took its
value (passes/augmented.py): the taken value must stay what it was; in-place methods called as
statements in a loop's branches (``progress.zero_()``, ``score.clamp_(max=...)``)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case


class WordLines(nn.Module):
    """Greedy line breaking: each word records its line number; a word wider than the limit gets a
    line of its own, numbered before the counter moves on."""

    def forward(self, widths, limit):
        line_of_word = []
        cur = torch.zeros(())
        line = 0
        for i in range(widths.shape[0]):
            w = widths[i]
            if w > limit:
                line_of_word.append(line)
                line += 1
                cur = torch.zeros(())
                continue
            if cur + w > limit:
                line += 1
                cur = w
            else:
                cur = cur + w
            line_of_word.append(line)
        return torch.tensor(line_of_word, dtype=torch.int64)


class StreakMeter(nn.Module):
    """Per-lane streaks that ``add_`` on a hit and ``zero_()`` on a miss, and a score ``clamp_``-ed
    each step: in-place methods as statements in a tensor loop's branches."""

    def forward(self, x):
        progress = torch.zeros(3, dtype=torch.long)
        score = torch.zeros(3)
        for t in range(x.shape[0]):
            if x[t].sum() > 0.0:
                progress.add_(1)
                score.add_(x[t])
            else:
                progress.zero_()
                score.fill_(0.25)
            score.clamp_(max=2.0)
        return progress, score


CASES = [
    Case(
        "an_int_counter_appended_then_incremented_in_a_branch_of_a_loop",
        WordLines,
        (torch.tensor([3.0, 5.0, 2.0, 7.0, 4.0]), torch.tensor(8.5)),
        [
            (torch.tensor([30.0, 2.0, 2.0]), torch.tensor(8.5)),
            (torch.tensor([2.0, 3.0]), torch.tensor(20.5)),
            (torch.tensor([4.0, 25.0, 3.0, 3.0, 30.0]), torch.tensor(12.5)),
        ],
        ({0: torch.export.Dim("words", min=2, max=64)}, None),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "in_place_methods_as_statements_in_a_loop_branch",
        StreakMeter,
        (torch.tensor([[1.0, 0.5, 0.2], [-1.0, -2.0, 0.1], [0.3, 0.4, 0.5], [0.9, 0.9, 0.9]]),),
        [(torch.ones(2, 3),), (-torch.ones(3, 3),), (torch.rand(9, 3) - 0.4,)],
        ({0: torch.export.Dim("steps", min=2, max=32)},),
        constructs=("for->while_loop", "if->cond"),
    ),
]
