"""Single-elimination cup bracket simulator (most-likely path).

Teams are listed in bracket order with an Elo rating and a feature vector
(form, injuries, travel ...). A match model gives P(home beats away) from the
rating gap plus a learned feature term. Every round the favourite advances;
near coin-flip matches go to a learned penalty-shootout model instead. If a
round has an odd number of teams, the best-rated remaining team gets a bye.
Ratings are updated Elo-style after every match. Returns the champion, the
round in which each team was eliminated (rounds played + 1 for the champion)
and the final ratings.

Kind: X. Constructs: 1, 2, 5, 7, 8.
"""
import torch
from torch import nn
from torch.export import Dim


class MatchModel(nn.Module):
    def __init__(self, n_feats=8):
        super().__init__()
        self.form = nn.Sequential(nn.Linear(n_feats, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, fa, fb, ra, rb):
        edge = (ra - rb) / 200.0 + 0.3 * (self.form(fa) - self.form(fb)).squeeze(-1)
        return torch.sigmoid(edge)


class ShootoutModel(nn.Module):
    def __init__(self, n_feats=8):
        super().__init__()
        self.keeper = nn.Linear(n_feats, 1)

    def forward(self, fa, fb):
        return (self.keeper(fa) - self.keeper(fb)).squeeze(-1)


def top_seed(alive, ratings):
    best = alive[0]
    for t in alive[1:]:
        if ratings[t] > ratings[best]:
            best = t
    return best


class BracketSimulator(nn.Module):
    def __init__(self, k_factor=24.0, toss_up=0.04):
        super().__init__()
        self.match = MatchModel()
        self.shootout = ShootoutModel()
        self.k_factor = k_factor
        self.toss_up = toss_up

    def play(self, a, b, feats, ratings):
        p = self.match(feats[a], feats[b], ratings[a], ratings[b])
        if (p - 0.5).abs() < self.toss_up:
            winner = a if self.shootout(feats[a], feats[b]) > 0 else b
        else:
            winner = a if p > 0.5 else b
        return winner, p

    def forward(self, feats, ratings):
        ratings = ratings.clone()
        n = feats.shape[0]
        eliminated = torch.zeros(n, dtype=torch.long)
        alive = list(range(n))
        rnd = 0
        while len(alive) > 1:
            rnd += 1
            next_round = []
            if len(alive) % 2 == 1:
                bye = top_seed(alive, ratings)
                alive.remove(bye)
                next_round.append(bye)
            for k in range(0, len(alive), 2):
                a, b = alive[k], alive[k + 1]
                winner, p = self.play(a, b, feats, ratings)
                loser = b if winner == a else a
                expected = p if winner == a else 1.0 - p
                ratings[winner] = ratings[winner] + self.k_factor * (1.0 - expected)
                ratings[loser] = ratings[loser] - self.k_factor * (1.0 - expected)
                eliminated[loser] = rnd
                next_round.append(winner)
            alive = sorted(next_round)
        champion = alive[0]
        eliminated[champion] = rnd + 1
        return torch.tensor(champion), eliminated, ratings


def model():
    torch.manual_seed(4215)
    return BracketSimulator().eval()


def _teams(elos, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(len(elos), 8, generator=g), torch.tensor(elos)


def example_inputs():
    return _teams([1850.0, 1620.0, 1710.0, 1790.0, 1500.0, 1905.0, 1655.0, 1580.0], seed=0)


def dynamic_shapes():
    n = Dim("teams", min=2, max=64)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                                   # 8 teams: 3 rounds, favourites and an upset
        _teams([1700.0, 1702.0], seed=1),                   # final only, coin flip -> penalty shootout
        _teams([1600.0, 1800.0, 1700.0, 1750.0, 1500.0], seed=2),  # odd counts: byes in two rounds
        _teams([1500.0, 1910.0, 1640.0, 1645.0, 1880.0, 1520.0], seed=3),  # 6 -> 3 (bye) -> 2 -> 1
    ]
