"""Tennis match scorer driven by a rally-outcome model.

A rally model predicts who wins each point from tracked rally features; the scorer then
applies tennis scoring (games to 4 with a two-point lead, sets to 6 with a two-game lead,
tie-break to 7 at 6-6, best of three sets) and stops as soon as the match is decided.
Returns sets, games in the current set, service breaks per player and points played.
"""
import torch
from torch import nn


def point_winner(p_first):
    return 0 if p_first > 0.5 else 1


class TennisMatchScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.rally = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def _summary(self, sets, games, breaks, played):
        return torch.tensor(sets), torch.tensor(games), torch.tensor(breaks), torch.tensor(played)

    def forward(self, rallies):
        # rallies: [P, 6]; columns 0/1 = rally pressure of player A / B, rest = court context
        edge = rallies[:, 0] - rallies[:, 1]
        prob = torch.sigmoid(3.0 * edge + 0.5 * torch.tanh(self.rally(rallies)[:, 0]))
        points, games, sets, breaks = [0, 0], [0, 0], [0, 0], [0, 0]
        server = 0
        tiebreak = False
        for p in range(rallies.shape[0]):
            w = point_winner(prob[p])
            points[w] += 1
            target = 7 if tiebreak else 4
            if points[w] < target or points[w] - points[1 - w] < 2:
                continue
            if w != server and not tiebreak:
                breaks[w] += 1
            games[w] += 1
            points = [0, 0]
            server = 1 - server
            if tiebreak or (games[w] >= 6 and games[w] - games[1 - w] >= 2):
                sets[w] += 1
                games = [0, 0]
                tiebreak = False
                if sets[w] == 2:
                    return self._summary(sets, games, breaks, p + 1)
            elif games[0] == 6 and games[1] == 6:
                tiebreak = True
        return self._summary(sets, games, breaks, rallies.shape[0])


def model():
    torch.manual_seed(0)
    return TennisMatchScorer().eval()


# --- building blocks for scripted matches (0 = player A wins the point, 1 = player B) ----
def _game(w):
    return [w] * 4


def _deuce_game(w):
    return [w, 1 - w] * 4 + [w, w]


def _set(winner_games):
    out = []
    for i, w in enumerate(winner_games):
        out += _deuce_game(w) if i % 3 == 2 else _game(w)
    return out


def _rallies(seq, seed):
    g = torch.Generator().manual_seed(seed)
    n = len(seq)
    ctx = torch.rand(n, 4, generator=g)
    a_wins = torch.tensor(seq) == 0
    strength = 0.8 + 0.4 * torch.rand(n, generator=g)
    col_a = torch.where(a_wins, strength, torch.zeros(n))
    col_b = torch.where(a_wins, torch.zeros(n), strength)
    return (torch.cat([col_a[:, None], col_b[:, None], ctx], dim=1),)


def example_inputs():
    return _rallies(_set([0, 1, 0, 0, 1, 0, 0, 0]) + _game(1) + _deuce_game(0), 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("points", min=2, max=400)},)


def verify_inputs():
    alt = [0, 1] * 5  # 5-5
    return [
        # unfinished match: a deuce game and a bit
        _rallies(_deuce_game(1) + _game(0) + [0, 1, 1], 1),
        # straight sets 6-0 6-0 for A (breaks of serve, early return)
        _rallies(_set([0] * 6) + _set([0] * 6) + [1, 1, 1], 2),
        # 7-6 (tie-break 8-6), 4-6, 7-5 -> A wins in three sets
        _rallies(_set(alt + [0, 1]) + [0, 1] * 6 + [0, 0]
                 + _set([1, 0, 1, 1, 0, 1, 0, 1, 1, 0]) + _set(alt + [0, 0]), 3),
        # B wins 6-4 then a tie-break set 7-6 (7-3 in the breaker)
        _rallies(_set([1, 0, 1, 0, 1, 1, 0, 1, 0, 1]) + _set(alt + [1, 0]) + [1, 0, 1, 1, 0, 1, 1, 1, 1, 0], 4),
        example_inputs(),
    ]
