"""Backgammon bear-off: replay a sequence of dice rolls for one player.

All 15 (or fewer) checkers are in the home board, counted per point 1..6.
Each roll is played die by die (doubles give four moves) with the standard
bear-off rules: bear off from the point equal to the die; if no checker is on
a higher point, bear off from the highest occupied point; otherwise move a
checker down from a higher point.  After every turn a small value network
estimates the winning chances from the position.
"""
import torch
import torch.nn as nn


class BearoffPlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.value = nn.Sequential(nn.Linear(7, 16), nn.Tanh(), nn.Linear(16, 1))
        self.register_buffer("pips", torch.arange(1, 7))

    def play_die(self, board, die):
        if board[die - 1] > 0:
            board[die - 1] -= 1
            return board
        if board[die:].sum() == 0:
            # nothing above the die: bear off from the highest occupied point
            for p in range(die - 2, -1, -1):
                if board[p] > 0:
                    board[p] -= 1
                    break
            return board
        # otherwise a checker has to move down from a higher point
        for p in range(5, die - 1, -1):
            if board[p] > 0:
                board[p] -= 1
                board[p - die] += 1
                break
        return board

    def forward(self, board, rolls):
        board = board.clone()
        turns = torch.zeros((), dtype=torch.long)
        win_prob = torch.zeros(rolls.shape[0])
        for t in range(rolls.shape[0]):
            if board.sum() == 0:
                break
            d1, d2 = int(rolls[t, 0]), int(rolls[t, 1])
            dice = [d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]
            i = 0
            while i < len(dice) and board.sum() > 0:
                board = self.play_die(board, dice[i])
                i += 1
            turns += 1
            pip_count = (board * self.pips).sum()
            feats = torch.cat([board.float(), pip_count.float().view(1)]) / 15.0
            win_prob[t] = torch.sigmoid(self.value(feats)).squeeze()
        return board, turns, win_prob


def model():
    torch.manual_seed(1101)
    return BearoffPlanner().eval()


def example_inputs():
    board = torch.tensor([2, 2, 3, 3, 3, 2])
    rolls = torch.tensor([[6, 5], [4, 4], [3, 1], [6, 2], [5, 5], [2, 1], [6, 6], [3, 4]])
    return board, rolls


def dynamic_shapes():
    return (None, {0: torch.export.Dim("rolls", min=2, max=30)})


def verify_inputs():
    g = torch.Generator().manual_seed(11)
    long_rolls = torch.randint(1, 7, (30, 2), generator=g)
    return [
        # example: full 15-checker bear-off, doubles and non-doubles, all three rules,
        # finishes before the rolls run out (break)
        example_inputs(),
        # position already borne off -> the turn loop breaks immediately (0 turns)
        (torch.tensor([0, 0, 0, 0, 0, 0]), torch.tensor([[3, 2], [6, 6]])),
        # two checkers left, double 6s -> finishes in the middle of the doubles (while
        # stops on the empty board), bear-off from lower points after empty scans
        (torch.tensor([1, 0, 0, 1, 0, 0]), torch.tensor([[6, 6], [2, 1]])),
        # small rolls against a heavy high board: checkers must move down; never finishes
        (torch.tensor([0, 0, 0, 0, 4, 6]), torch.tensor([[1, 2], [2, 1], [1, 1]])),
        # 30 random rolls from a full board
        (torch.tensor([3, 2, 2, 3, 2, 3]), long_rolls),
    ]
