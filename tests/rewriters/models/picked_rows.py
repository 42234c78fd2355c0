"""A `while` loop bounded by a step counter that appends picks and reads them back (`for j in
picked`, `len(picked)` in its test): the list is carried as rows with room for one per step."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class DiversePicks(nn.Module):
    """Up to 3 best rows, skipping one too similar to a row already picked."""

    def forward(self, x, scores):
        n = x.shape[0]
        e = torch.nn.functional.normalize(x, dim=1)
        picked = []
        remaining = scores.clone()
        steps = 0
        while len(picked) < 3 and steps < n:
            steps += 1
            idx = torch.argmax(remaining)
            if remaining[idx] < 0.1:
                break
            remaining = torch.where(torch.arange(n) == idx, torch.full_like(remaining, -1e9), remaining)
            similar = False
            for j in picked:
                if torch.dot(e[j], e[idx]) > 0.95:
                    similar = True
                    break
            if similar:
                continue
            picked.append(idx)
        if len(picked) == 0:
            return torch.zeros(0, dtype=torch.long)
        return torch.stack(picked)


def _inputs(rows, scores):
    return torch.tensor(rows, dtype=torch.float32), torch.tensor(scores)


_ROWS = [[1.0, 0.0], [0.99, 0.05], [0.0, 1.0], [0.7, 0.7], [-1.0, 0.2]]

CASES = [
    Case(
        "list_read_back_in_a_counter_bounded_while",
        seeded(DiversePicks),
        _inputs(_ROWS, [0.9, 0.8, 0.5, 0.3, 0.2]),
        [
            _inputs(_ROWS, [0.05, 0.02, 0.01, 0.03, 0.04]),
            _inputs(_ROWS[:3], [0.9, 0.85, 0.05]),
            _inputs(_ROWS, [0.2, 0.9, 0.6, 0.7, 0.8]),
        ],
        ({0: torch.export.Dim("n", min=3, max=32)}, {0: torch.export.Dim("n", min=3, max=32)}),
        constructs=("while->while_loop",),
    ),
]
