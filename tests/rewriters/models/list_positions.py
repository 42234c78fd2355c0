"""Python lists of numbers as loop state, read and updated at positions a converted branch picks
(``points[w] += 1`` with ``w = 0 if p > 0.5 else 1``), and handed to a helper by a `return` in the
loop (its result slot is a list)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


def _summary(games, points, played):
    return torch.tensor(games), torch.tensor(points), torch.tensor(played)


class RallyScorer(nn.Module):
    """Points won by the player the model favours; a game at 3 points with a lead of two; the
    match at two games (an early return)."""

    def __init__(self):
        super().__init__()
        self.edge = nn.Linear(3, 1)

    def forward(self, rallies):
        prob = torch.sigmoid(4.0 * (rallies[:, 0] - rallies[:, 1]) + 0.1 * self.edge(rallies)[:, 0])
        points, games = [0, 0], [0, 0]
        for i in range(rallies.shape[0]):
            w = 0 if prob[i] > 0.5 else 1
            points[w] += 1
            if points[w] < 3 or points[w] - points[1 - w] < 2:
                continue
            games[w] += 1
            points = [0, 0]
            if games[w] == 2:
                return _summary(games, points, i + 1)
        return _summary(games, points, rallies.shape[0])


def _rallies(winners: list[int], seed: int) -> tuple:
    g = torch.Generator().manual_seed(seed)
    first = torch.tensor(winners) == 0
    strength = 0.8 + 0.4 * torch.rand(len(winners), generator=g)
    a = torch.where(first, strength, torch.zeros(len(winners)))
    b = torch.where(first, torch.zeros(len(winners)), strength)
    return (torch.stack([a, b, torch.rand(len(winners), generator=g)], dim=1),)


CASES = [
    Case(
        "python_list_state_updated_at_positions_a_branch_picks",
        seeded(RallyScorer),
        _rallies([0, 0, 1, 0, 1, 1, 1, 0, 0], 0),
        [
            _rallies([0, 1, 0, 1], 1),  # no game decided
            _rallies([0, 0, 0, 1, 1, 1, 1], 2),  # a game each, then a point
            _rallies([1, 1, 1, 0, 1, 1, 1, 0, 0], 3),  # B takes two games: the early return
            _rallies([0, 1, 0, 1, 0, 0, 1, 0, 0, 0], 4),  # A: two games, the early return
        ],
        ({0: torch.export.Dim("rallies", min=2, max=64)},),
        constructs=("for->while_loop",),
    ),
]
