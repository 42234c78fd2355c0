"""Cribbage show scoring plus a learned crib-value estimate.

Scores a hand whose last card is the starter (cut card): fifteens (counted
with a subset-sum DP over the cards), pairs (nested loop), runs (a small state
machine over the rank histogram, multiplied out for duplicated ranks),
flush (4 or 5 cards) and "his nobs" (jack of the starter's suit). A small
network on the rank histogram estimates the expected value the discards would
add to the crib, as used by a cribbage bot's discard policy.

Kind: X.  Constructs: 1, 2, 3, 5, 6, 7, 8, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class CribbageScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.crib_value = nn.Sequential(nn.Linear(13, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("shift_idx", torch.arange(16).unsqueeze(1) - torch.arange(16).unsqueeze(0))

    def count_fifteens(self, ranks):
        values = ranks.clamp(max=10)  # face cards count ten
        ways = torch.zeros(16)
        ways[0] = 1.0
        for i in range(values.shape[0]):
            shift = (self.shift_idx == values[i]).float()  # moves every partial sum up by this card
            ways = ways + shift @ ways
        return 2 * ways[15].long()

    def count_pairs(self, ranks):
        points = torch.zeros((), dtype=torch.long)
        for i in range(ranks.shape[0]):
            for j in range(i + 1, ranks.shape[0]):
                if ranks[i] == ranks[j]:
                    points = points + 2
        return points

    def close_run(self, length, mult):
        if length >= 3:
            return length * mult
        return torch.zeros((), dtype=torch.long)

    def count_runs(self, ranks):
        counts = torch.bincount(ranks - 1, minlength=13)
        best = torch.zeros((), dtype=torch.long)
        length = 0
        mult = torch.ones((), dtype=torch.long)
        for r in range(14):  # one past the king to close the last run
            if r < 13 and counts[r] > 0:
                length += 1
                mult = mult * counts[r]
                continue
            best = best + self.close_run(length, mult)
            length = 0
            mult = torch.ones((), dtype=torch.long)
        return best

    def count_flush(self, suits):
        hand, starter = suits[:-1], suits[-1]
        if hand.shape[0] < 4:
            return torch.zeros((), dtype=torch.long)  # a flush needs at least four cards in hand
        if not (hand == hand[0]).all():
            return torch.zeros((), dtype=torch.long)
        points = torch.tensor(hand.shape[0])
        if starter == hand[0]:
            points = points + 1
        return points

    def count_nobs(self, ranks, suits):
        for i in range(ranks.shape[0] - 1):
            if ranks[i] == 11 and suits[i] == suits[-1]:
                return torch.ones((), dtype=torch.long)
        return torch.zeros((), dtype=torch.long)

    def forward(self, ranks, suits):
        # ranks: [N] in 1..13 (ace..king), suits: [N] in 0..3; the last card is the starter
        parts = torch.stack([
            self.count_fifteens(ranks),
            self.count_pairs(ranks),
            self.count_runs(ranks),
            self.count_flush(suits),
            self.count_nobs(ranks, suits),
        ])
        hist = torch.bincount(ranks[:-1] - 1, minlength=13).float()
        crib = self.crib_value(hist).squeeze()
        return parts, parts.sum(), crib


def model():
    torch.manual_seed(633)
    return CribbageScorer().eval()


def _hand(ranks, suits):
    return torch.tensor(ranks), torch.tensor(suits)


def example_inputs():
    # 5-5-5-J with the 5 of the jack's suit cut: the famous 29 hand
    return _hand([5, 5, 5, 11, 5], [0, 1, 2, 3, 3])


def dynamic_shapes():
    n = Dim("cards", min=2, max=8)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),                             # 29 hand: 8 fifteens, 6 pairs, no run, no flush, nobs (early return)
        _hand([3, 4, 5, 5, 6], [0, 0, 0, 0, 2]),      # double run 3-4-5-5-6 (mult 2), 4-card flush, starter off-suit
        _hand([1, 2, 3, 4, 13], [1, 1, 1, 1, 1]),     # run of 4 closed at rank 5, 5-card flush, no pairs, no nobs
        _hand([2, 4, 6, 8, 12], [0, 1, 2, 3, 0]),     # nothing runs, flush fails, nobs loop ends without return
        _hand([11, 12, 13, 1], [2, 0, 1, 2]),          # 4 cards (3-card hand + starter): too few for a flush; J-Q-K run closed at the end,
                                                       # jack matches starter suit
        _hand([9, 9], [0, 1]),                        # 2 cards: one pair, run too short (close_run returns 0), no flush check
        _hand([10, 11, 12, 13, 1, 2, 3], [0, 1, 2, 3, 0, 1, 3]),  # 7 cards (crib variant): two runs of 3+, J off-suit
    ]
