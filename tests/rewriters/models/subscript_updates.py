"""Augmented subscript updates (``x[i] += v``) by 0-d tensor indices (passes/subscript_updates.py):
a loop over pair records tallying wins and moving scores by the record's players, skipping
malformed records, its step size a Python float chosen by a tensor test; and a top-level bump at a
position an argmax picks; windows around peaks a `while` finds zeroed by slice stores; a table row
picked by a key read from the data, updated in a column slice (``weights[row, 1:] += d``)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

RECORDS = torch.export.Dim("records", min=2, max=64)
PLAYERS = torch.export.Dim("players", min=2, max=32)


class PairTally(nn.Module):
    """Scores moved and games counted by each record's two players (tensor indices)."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor(0.5))

    def forward(self, scores, pairs):
        scores = scores.clone()
        games = torch.zeros(scores.shape[0], dtype=torch.long)
        for m in range(pairs.shape[0]):
            a, b = pairs[m, 0], pairs[m, 1]
            if a == b:
                continue
            step = 2.0 if games[a] < 2 else 1.0
            gap = torch.tanh((scores[a] - scores[b]) * self.scale)
            scores[a] += step * (1.0 - gap)
            scores[b] -= step * (1.0 - gap)
            games[a] += 1
            games[b] += 1
        return scores, games


class BumpPeak(nn.Module):
    """The strongest entry raised once (the index a call, evaluated once)."""

    def forward(self, x):
        x = x.clone()
        x[torch.argmax(x)] *= 2.0
        return x


def _pairs(players, *pairs):
    return (torch.linspace(-1.0, 1.0, players), torch.tensor(pairs))


class PeelPeaks(nn.Module):
    """Peaks taken strongest first while above a threshold, each one's neighbourhood zeroed by a
    slice store whose bounds come from the peak's position (``argmax`` in the loop)."""

    def forward(self, x):
        best = x.clone()
        found = []
        while best.max() > 0.5 and len(found) < 3:
            idx = int(torch.argmax(best))
            r, c = idx // best.shape[1], idx % best.shape[1]
            found.append(best[r, c] * 1.0)
            best[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = 0.0
        total = torch.stack(found).sum() if found else torch.zeros(())
        return total, best


class RowTrainer(nn.Module):
    """Perceptron-style tables: each key picks a row; a wrong sign moves its bias and its other
    weights toward the outcome."""

    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.randn(4, 5))

    def forward(self, keys, outcomes):
        weights = self.table.clone()
        scores = []
        for t in range(keys.shape[0]):
            row = int(keys[t]) % 4
            y = weights[row, 0] + weights[row, 1:].sum()
            if (y > 0) != bool(outcomes[t] > 0):
                sign = 1.0 if outcomes[t] > 0 else -1.0
                weights[row, 0] += sign
                weights[row, 1:] += sign * 0.5
            scores.append(y)
        return torch.stack(scores), weights


def _keys(keys, outcomes):
    return torch.tensor(keys), torch.tensor(outcomes)


def _peaks(rows: int, cols: int, at: list[tuple[int, int, float]]) -> tuple:
    x = 0.1 * torch.rand(rows, cols, generator=torch.Generator().manual_seed(rows * cols))
    for r, c, v in at:
        x[r, c] = v
    return (x,)


CASES = [
    Case(
        "augmented_subscript_updates_by_tensor_indices_in_a_loop",
        seeded(PairTally),
        _pairs(4, (0, 1), (2, 3), (1, 1), (0, 2), (0, 3)),
        [
            _pairs(3, (2, 2), (0, 1), (1, 2), (0, 1), (0, 2), (0, 1)),
            _pairs(2, (0, 1), (1, 0)),
            _pairs(6, (5, 0), (4, 4), (3, 1), (5, 2), (5, 1), (0, 4), (5, 3)),
        ],
        ({0: PLAYERS}, {0: RECORDS}),
        constructs=("for->while_loop",),
    ),
    Case(
        "augmented_subscript_update_at_an_argmax",
        seeded(BumpPeak),
        (torch.tensor([0.1, 0.7, -0.3, 0.2]),),
        [(torch.tensor([0.9, 0.1, 0.2]),), (torch.tensor([-0.5, -0.1, -0.9, -0.2, 0.3]),)],
        ({0: PLAYERS},),
    ),
    Case(
        "slice_stores_around_peaks_a_while_loop_finds",
        PeelPeaks,
        _peaks(6, 7, [(2, 3, 2.0), (0, 0, 1.5)]),
        [
            _peaks(4, 4, []),  # no peak: the loop runs no iteration
            _peaks(8, 5, [(7, 4, 0.9)]),  # one peak in the corner
            _peaks(9, 9, [(1, 1, 3.0), (4, 4, 2.5), (7, 7, 2.0), (4, 0, 1.0)]),  # stops at three
        ],
        ({0: torch.export.Dim("rows", min=3, max=16), 1: torch.export.Dim("cols", min=3, max=16)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_row_picked_from_the_data_updated_in_a_column_slice",
        seeded(RowTrainer),
        _keys([0, 1, 2, 3, 1, 2, 7, 5], [1, 0, 1, 1, 0, 0, 1, 0]),
        [
            _keys([3, 3], [1, 1]),
            _keys([1, 2, 5, 9, 0, 1], [0, 0, 0, 1, 1, 1]),
        ],
        ({0: RECORDS}, {0: RECORDS}),
    ),
]
