"""A `while` loop bounded by a step counter that appends picks and reads them back (`for j in
picked`, `len(picked)` in its test): the list is carried as rows with room for one per step; with
a tensor budget (`while steps < budget`, `steps = steps + 1`) the room is that many rows, a
data-dependent size."""

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


class PenalisedDecoder(nn.Module):
    """Greedy decoding for at most `budget` steps: tokens already emitted are penalised, an end
    token stops it."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 8)
        self.out = nn.Linear(8, 6)

    def forward(self, x, budget):
        h = torch.tanh(x.mean(0)).repeat(2)
        steps = torch.zeros((), dtype=torch.long)
        emitted = []
        while steps < budget:
            h = self.cell(x[steps % x.shape[0]].unsqueeze(0), h.unsqueeze(0))[0]
            logits = 4.0 * self.out(h) + 0.5 * steps.float() * (torch.arange(6) == 0).float()
            for prev in emitted:
                logits = logits - 2.0 * (torch.arange(6) == prev).float()
            tok = logits.argmax()
            steps = steps + 1
            if tok == 0:
                break
            emitted.append(tok)
        if len(emitted) == 0:
            return torch.zeros(0, dtype=torch.long), steps
        return torch.stack(emitted), steps


def _frames(n, budget, seed):
    return torch.randn(n, 4, generator=torch.Generator().manual_seed(seed)), torch.tensor(budget)


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
    Case(
        "list_read_back_in_a_while_bounded_by_a_tensor_budget",
        seeded(PenalisedDecoder),
        _frames(5, 12, 0),
        [_frames(3, 0, 1), _frames(8, 1, 2), _frames(4, 12, 3), _frames(4, 2, 3)],
        ({0: torch.export.Dim("frames", min=2, max=32)}, None),
        constructs=("while->while_loop",),
    ),
]
