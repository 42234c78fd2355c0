"""Tennis umpire scoreboard app: points -> games -> set, with deuce/advantage, a 6-6
tiebreak, and points after the set is decided ignored."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def game_winner(pts, tiebreak):
    need = 7 if tiebreak else 4
    lead = pts[0] - pts[1]
    if pts[0] >= need and lead >= 2:
        return 0
    if pts[1] >= need and lead <= -2:
        return 1
    return -1


class TennisScoreTracker(nn.Module):
    def forward(self, winners):
        pts = torch.zeros(2, dtype=torch.long)
        games = torch.zeros(2, dtype=torch.long)
        tiebreak = False
        set_winner = -1
        for i in range(winners.shape[0]):
            pts = pts + F.one_hot(winners[i], 2)
            g = game_winner(pts, tiebreak)
            if g < 0:
                continue
            games = games + F.one_hot(torch.tensor(g), 2)
            pts = torch.zeros(2, dtype=torch.long)
            if tiebreak or (games.max() >= 6 and (games[0] - games[1]).abs() >= 2):
                set_winner = g
                break
            tiebreak = bool(games[0] == 6 and games[1] == 6)
        return games, pts, torch.tensor(set_winner), torch.tensor(int(tiebreak))


def model():
    return TennisScoreTracker().eval()


def _points(games, tail=()):
    # games: (winner, points won by the loser); deuce games alternate before the final two points
    seq = []
    for w, lost in games:
        l = 1 - w
        if lost <= 2:
            seq += [l] * lost + [w] * 4
        else:
            seq += [w, w, w, l, l, l]
            for _ in range(lost - 3):
                seq += [w, l]
            seq += [w, w]
    seq += list(tail)
    return (torch.tensor(seq, dtype=torch.long),)


def _tiebreak(w, lost):
    l = 1 - w
    return [l] * lost + [w] * 7


def example_inputs():
    games = [(0, 1), (1, 2), (0, 0), (0, 3), (1, 1), (0, 2), (0, 4), (1, 0), (0, 1)]
    return _points(games, tail=[1, 0, 0])


def dynamic_shapes():
    return ({0: torch.export.Dim("points", min=2, max=512)},)


def verify_inputs():
    six_all = [(0, 1), (1, 0), (0, 2), (1, 3), (0, 0), (1, 1), (0, 2), (1, 2), (0, 3), (1, 1), (0, 0), (1, 2)]
    return [
        _points([(0, 2), (1, 3)], tail=[0, 1]),                       # early in the set
        _points(six_all, tail=_tiebreak(1, 4) + [0, 0]),             # tiebreak decides it
        _points([(1, 0), (0, 1), (1, 2), (0, 0), (1, 3), (0, 1), (1, 1), (0, 2), (1, 0), (0, 1),
                 (1, 2), (1, 1)]),                                   # 7-5
    ]
