"""Augmented subscript updates (``x[i] += v``) by 0-d tensor indices (passes/subscript_updates.py):
a loop over pair records tallying wins and moving scores by the record's players, skipping
malformed records, its step size a Python float chosen by a tensor test; and a top-level bump at a
position an argmax picks."""

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
]
