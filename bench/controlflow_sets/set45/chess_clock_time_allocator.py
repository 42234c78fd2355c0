"""Chess engine time management: how long to think on this move, from the
remaining clock, the increment and the recent evaluation history (a small
learned net rates how sharp the position is).

Kind T. Constructs: 1, 2, 3, 7, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class TimeManager(nn.Module):
    def __init__(self, book_moves=8, window=8):
        super().__init__()
        self.book_moves = book_moves
        self.window = window
        self.sharpness = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def moves_to_go(self, moves_played):
        # classic "assume the game lasts ~40 more moves, but never fewer than 15"
        return max(40 - moves_played // 2, 15)

    def position_features(self, evals):
        recent = evals[-self.window:]
        swing = recent.max() - recent.min()
        trend = recent[-1] - recent[0]
        return torch.stack([swing, trend, recent.abs().mean(), recent.std()]), swing

    def allocate(self, remaining, inc, base, swing, sharp):
        """Returns (think seconds, mode) with mode 0 normal, 1 critical, 2 panic."""
        if remaining < 10.0:
            return torch.minimum(0.8 * inc, 0.1 * remaining), torch.full((1,), 2.0)
        elif swing > 1.5 and not remaining < 60.0:
            return base * (1.5 + sharp), torch.ones(1)  # critical moment, we can afford it
        return base * (0.8 + 0.4 * sharp), torch.zeros(1)

    def forward(self, evals, clock):
        # evals: [M] engine evaluation (pawns) after each of the M plies so far
        # clock: [2] remaining seconds, increment seconds
        remaining, inc = clock[0], clock[1]
        moves_played = evals.shape[0]
        if moves_played < self.book_moves:
            # still in the opening book: play almost instantly
            return (0.05 * inc + 0.5).reshape(1), torch.zeros(1)

        feats, swing = self.position_features(evals)
        sharp = torch.sigmoid(self.sharpness(feats)).squeeze()
        base = remaining / self.moves_to_go(moves_played) + 0.8 * inc
        think, mode = self.allocate(remaining, inc, base, swing, sharp)
        think = torch.minimum(think, 0.5 * remaining)
        return think.reshape(1), mode


def model():
    torch.manual_seed(5)
    return TimeManager().eval()


def _evals(m, swing, seed):
    g = torch.Generator().manual_seed(seed)
    base = 0.3 * torch.randn(m, generator=g).cumsum(0) * 0.1
    if swing:
        base[-4:] += torch.tensor([0.0, 2.5, -0.5, 3.0])
    return base


def example_inputs():
    return (_evals(30, False, 0), torch.tensor([300.0, 2.0]))


def dynamic_shapes():
    return ({0: Dim("plies", min=2, max=300)}, None)


def verify_inputs():
    return [
        example_inputs(),  # quiet middlegame, plenty of time -> normal mode
        (_evals(5, False, 1), torch.tensor([600.0, 5.0])),  # 5 plies < book -> early return
        (_evals(40, True, 2), torch.tensor([7.5, 1.0])),  # < 10 s left -> panic mode
        (_evals(44, True, 3), torch.tensor([240.0, 3.0])),  # swing 3 > 1.5 and time ok -> critical mode
        (_evals(50, True, 4), torch.tensor([40.0, 0.0])),  # swing big but 40 s < 60 -> `not` fails -> normal mode
        (_evals(200, False, 5), torch.tensor([120.0, 1.0])),  # long game: moves_to_go floor 15, normal
        (_evals(2, False, 6), torch.tensor([100.0, 0.0])),  # minimum plies: book move
    ]
