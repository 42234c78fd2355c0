"""Elo rating update for a chess club's tournament log.

Matches are processed in order.  Malformed records (a player against
themselves) are skipped; provisional players (few games) use a larger K factor;
an upset win against a much stronger opponent gets an extra bonus.  A small
learned calibration maps the Elo expectation through a temperature fitted on
past seasons.  Returns the final ratings and number of games per player.
"""
import torch
import torch.nn as nn
from torch.export import Dim

LOSS, DRAW, WIN = 0, 1, 2


class ExpectationCalibrator(nn.Module):
    def __init__(self):
        super().__init__()
        self.log_temp = nn.Parameter(torch.tensor(0.1))

    def forward(self, diff):
        return torch.sigmoid(diff / 400.0 * 2.302585 / self.log_temp.exp())


class EloRater(nn.Module):
    def __init__(self):
        super().__init__()
        self.expect = ExpectationCalibrator()
        self.k_provisional = 40.0
        self.k_regular = 20.0
        self.provisional_games = 3
        self.upset_expectation = 0.25

    def forward(self, ratings, matches, outcomes):
        ratings = ratings.clone()
        games = torch.zeros(ratings.shape[0], dtype=torch.long)
        for m in range(matches.shape[0]):
            a, b = matches[m, 0], matches[m, 1]
            if a == b:
                continue
            expected = self.expect(ratings[a] - ratings[b])
            o = outcomes[m]
            if o == WIN:
                score = 1.0
            elif o == DRAW:
                score = 0.5
            else:
                score = 0.0
            k = self.k_provisional if games[a] < self.provisional_games else self.k_regular
            if o == WIN and expected < self.upset_expectation:
                k = k * 1.5
            delta = k * (score - expected)
            ratings[a] = ratings[a] + delta
            ratings[b] = ratings[b] - delta
            games[a] += 1
            games[b] += 1
        return ratings, games


def model():
    torch.manual_seed(0)
    return EloRater().eval()


def _make(seed, n_players, n_matches, self_games=0):
    g = torch.Generator().manual_seed(seed)
    ratings = 1200.0 + 400.0 * torch.rand(n_players, generator=g)
    a = torch.randint(0, n_players, (n_matches,), generator=g)
    b = (a + torch.randint(1, n_players, (n_matches,), generator=g)) % n_players
    for j in range(self_games):
        b[j * 2] = a[j * 2]
    matches = torch.stack([a, b], dim=1)
    outcomes = torch.randint(0, 3, (n_matches,), generator=g)
    return ratings, matches, outcomes


def example_inputs():
    return _make(0, 5, 8)


def dynamic_shapes():
    matches = Dim("matches", min=2, max=128)
    return ({0: Dim("players", min=2, max=64)}, {0: matches}, {0: matches})


def verify_inputs():
    return [
        _make(1, 6, 12, self_games=2),
        _make(2, 2, 5),
        _make(3, 10, 30),
        _make(4, 16, 40, self_games=1),
    ]
