"""Yahtzee bot scorekeeper: for each final roll of a turn, score every
category with the official rules, put the roll in the best open category
(fixed tie-break order), handle Yahtzee bonuses and the upper-section bonus,
stop when the card is full, and rate the final card with a small value net.

Kind X. Constructs: 1, 2, 3, 5, 6, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim

CATEGORIES = ["ones", "twos", "threes", "fours", "fives", "sixes",
              "three_kind", "four_kind", "full_house", "small_straight",
              "large_straight", "yahtzee", "chance"]
YAHTZEE = CATEGORIES.index("yahtzee")


def face_counts(dice):
    return torch.stack([(dice == v).sum() for v in range(1, 7)])


def has_straight(counts, length):
    run = 0
    for v in range(6):
        if counts[v] > 0:
            run += 1
            if run >= length:
                return True
        else:
            run = 0
    return False


def score_roll(dice):
    counts = face_counts(dice)
    total = dice.sum()
    zero = torch.zeros((), dtype=dice.dtype)
    scores = [counts[v] * (v + 1) for v in range(6)]
    scores.append(total if counts.max() >= 3 else zero)
    scores.append(total if counts.max() >= 4 else zero)
    if (counts == 3).any() and (counts == 2).any():
        scores.append(torch.tensor(25, dtype=dice.dtype))
    else:
        scores.append(zero)
    scores.append(torch.tensor(30, dtype=dice.dtype) if has_straight(counts, 4) else zero)
    scores.append(torch.tensor(40, dtype=dice.dtype) if has_straight(counts, 5) else zero)
    scores.append(torch.tensor(50, dtype=dice.dtype) if counts.max() == 5 else zero)
    scores.append(total)
    return torch.stack(scores), counts


class YahtzeeScorer(nn.Module):
    def __init__(self, upper_bonus_at=63):
        super().__init__()
        self.upper_bonus_at = upper_bonus_at
        self.value = nn.Sequential(nn.Linear(len(CATEGORIES) + 2, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, rolls):
        # rolls: [N, 5] int64 final dice of each turn played so far
        card = torch.zeros(len(CATEGORIES), dtype=torch.long)
        used = [False] * len(CATEGORIES)
        bonus = torch.zeros((), dtype=torch.long)
        for t in range(rolls.shape[0]):
            if all(used):
                break  # card full; later rows are from the next game
            scores, counts = score_roll(rolls[t])
            if counts.max() == 5 and used[YAHTZEE] and card[YAHTZEE] == 50:
                bonus = bonus + 100  # extra Yahtzee
            best, best_score = -1, None
            for c in range(len(CATEGORIES)):
                if used[c]:
                    continue
                if best_score is None or scores[c] > best_score:
                    best, best_score = c, scores[c]
            card[best] = best_score
            used[best] = True
        upper = card[:6].sum()
        if upper >= self.upper_bonus_at:
            bonus = bonus + 35
        total = card.sum() + bonus
        feats = torch.cat([card.float() / 50.0, torch.stack([bonus.float() / 100.0,
                                                             torch.tensor(float(sum(used))) / 13.0])])
        return card, total, torch.sigmoid(self.value(feats)).squeeze()


def model():
    torch.manual_seed(18)
    return YahtzeeScorer().eval()


def _rolls(rows):
    return (torch.tensor(rows, dtype=torch.long),)


def example_inputs():
    return _rolls([[3, 3, 3, 5, 5], [1, 2, 3, 4, 6], [6, 6, 6, 6, 2], [2, 2, 4, 5, 1]])


def dynamic_shapes():
    return ({0: Dim("turns", min=2, max=64)},)


GAME = [
    [6, 6, 6, 6, 6],  # yahtzee
    [6, 6, 6, 6, 6],  # second yahtzee -> +100 bonus, scores in sixes
    [5, 5, 5, 5, 2],
    [4, 4, 4, 1, 2],
    [1, 2, 3, 4, 5],
    [2, 3, 4, 5, 5],
    [3, 3, 2, 2, 2],
    [1, 1, 1, 6, 5],
    [2, 2, 2, 3, 3],
    [3, 3, 3, 4, 1],
    [4, 4, 6, 6, 1],
    [1, 3, 5, 6, 2],
    [5, 5, 5, 1, 4],
    [6, 5, 4, 3, 2],  # 14th row: card already full -> break
    [1, 1, 1, 1, 1],
]


GAME_UPPER = [
    [1, 1, 1, 1, 1],  # yahtzee 50
    [6, 6, 6, 5, 5],  # three of a kind
    [6, 6, 6, 6, 5],  # four of a kind
    [2, 3, 4, 5, 6],  # large straight
    [1, 2, 3, 4, 6],  # small straight
    [2, 2, 3, 3, 3],  # full house
    [6, 6, 6, 5, 4],  # chance
    [6, 6, 6, 6, 6],  # extra yahtzees while only the upper section is open
    [5, 5, 5, 5, 5],
    [4, 4, 4, 4, 4],
    [3, 3, 3, 1, 1],
    [2, 2, 2, 2, 1],
    [1, 1, 6, 6, 6],
    [4, 4, 4, 4, 4],  # card full -> break
]


def verify_inputs():
    return [
        example_inputs(),  # full house, small straight, four of a kind; card never fills
        _rolls(GAME),  # full game greedy into the lower section: upper bonus missed, break once card is full
        _rolls(GAME_UPPER),  # full game: three extra yahtzees, upper section 75 >= 63 -> +35, break
        _rolls([[1, 1, 1, 1, 1], [1, 1, 1, 1, 1]]),  # min turns: yahtzee then extra yahtzee
        _rolls([[1, 1, 2, 3, 5]] * 2 + [[2, 4, 6, 6, 1]] * 62),  # max turns, junk rolls: zeros scratched, upper bonus missed
        _rolls([[2, 2, 2, 2, 2], [1, 2, 3, 4, 6], [3, 3, 3, 3, 3]]),  # yahtzee 50, small straight, then extra yahtzee bonus
    ]
