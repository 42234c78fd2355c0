"""Texas hold'em showdown evaluator for a poker training app.

Each player's best five-card hand out of seven cards (two hole cards plus the
five board cards) is classified (straight flush ... high card) with the
rank that decides ties inside the category, folded players are skipped, the
pot is split between the best hands, and a small value network scores each
hand for the post-game review screen.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

RANKS = 13  # 0 = deuce ... 12 = ace
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def top_rank(mask):
    """Highest rank set in a [13] mask."""
    return torch.nonzero(mask)[-1, 0]


def straight_high(present):
    """Top card of the best straight in a [13] rank-presence mask, or -1."""
    for high in range(12, 3, -1):
        if present[high - 4: high + 1].all():
            return high
    # the wheel: A-2-3-4-5 plays as a five-high straight
    if present[12] and present[:4].all():
        return 3
    return -1


def best_hand(cards):
    """cards: [7, 2] (rank, suit) -> (category, deciding rank)."""
    ranks, suits = cards[:, 0], cards[:, 1]
    counts = torch.bincount(ranks, minlength=RANKS)
    suit_counts = torch.bincount(suits, minlength=4)
    flush_ranks = None
    if suit_counts.max() >= 5:
        flush_ranks = ranks[suits == suit_counts.argmax()]
        high = straight_high(torch.bincount(flush_ranks, minlength=RANKS) > 0)
        if high >= 0:
            return STRAIGHT_FLUSH, high
    if counts.max() == 4:
        return QUADS, top_rank(counts == 4)
    if (counts == 3).any() and (counts >= 2).sum() >= 2:
        return FULL_HOUSE, top_rank(counts == 3)
    if flush_ranks is not None:
        return FLUSH, flush_ranks.max()
    high = straight_high(counts > 0)
    if high >= 0:
        return STRAIGHT, high
    if (counts == 3).any():
        return TRIPS, top_rank(counts == 3)
    if (counts == 2).sum() >= 2:
        return TWO_PAIR, top_rank(counts == 2)
    if (counts == 2).any():
        return PAIR, top_rank(counts == 2)
    return HIGH_CARD, ranks.max()


class ShowdownEvaluator(nn.Module):
    def __init__(self):
        super().__init__()
        self.value = nn.Sequential(nn.Linear(9 + 2, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, cards, stacks):
        # cards: [P, 7, 2] int64 (hole cards first, -1 = mucked); stacks: [P] chips in big blinds
        cats, tops = [], []
        for p in range(cards.shape[0]):
            if (cards[p, :2] < 0).any():
                # folded before showdown
                cats.append(torch.tensor(-1))
                tops.append(torch.tensor(-1))
                continue
            cat, top = best_hand(cards[p])
            cats.append(torch.tensor(cat))
            tops.append(torch.as_tensor(top))
        cats = torch.stack(cats)
        tops = torch.stack(tops)
        strength = cats * RANKS + tops
        winners = ((strength == strength.max()) & (cats >= 0)).float()
        share = winners / winners.sum()
        live = (cats >= 0).float()[:, None]
        feats = torch.cat([F.one_hot(cats.clamp(min=0), 9).float() * live,
                           (tops.float() / 12.0)[:, None], (stacks / 100.0)[:, None]], dim=-1)
        return cats, share, self.value(feats).squeeze(-1)


def model():
    torch.manual_seed(67)
    return ShowdownEvaluator().eval()


_SUIT = {"s": 0, "h": 1, "d": 2, "c": 3}
_RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def _make_table(board, holes, stacks):
    """board: 5 cards like 'Ah'; holes: per player 2 cards, or None if folded."""
    def card(c):
        return [_RANK[c[0]], _SUIT[c[1]]]
    rows = []
    for hole in holes:
        h = [[-1, -1], [-1, -1]] if hole is None else [card(c) for c in hole]
        rows.append(h + [card(c) for c in board])
    return torch.tensor(rows, dtype=torch.long), torch.tensor(stacks, dtype=torch.float32)


def example_inputs():
    # board 9h Th Jh 2c 2d
    return _make_table(["9h", "Th", "Jh", "2c", "2d"],
                       [["Qh", "Kh"],    # royal-ish straight flush (K high)
                        ["2s", "2h"],    # quads
                        ["9c", "9d"],    # full house
                        ["Ah", "3h"],    # flush
                        None,            # folded
                        ["Qc", "8s"]],   # straight
                       [42.5, 17.25, 88.0, 30.5, 12.75, 55.5])


def dynamic_shapes():
    players = torch.export.Dim("players", min=2, max=10)
    return ({0: players}, {0: players})


def verify_inputs():
    return [
        # straight flush, quads, full house, flush, folded, straight
        example_inputs(),
        # board As 2d 3c 8h Kd: wheel straight, trips, two pair, pair, high card
        _make_table(["As", "2d", "3c", "8h", "Kd"],
                    [["4h", "5s"],    # wheel A-5
                     ["8s", "8d"],    # trips
                     ["Kc", "2h"],    # two pair
                     ["Jc", "Jh"],    # pair
                     ["9c", "7d"]],   # high card (ace)
                    [20.5, 35.0, 60.25, 15.5, 41.75]),
        # board 4s 5s 6s Ts Js: flush without a straight flush vs straight-flush draw made
        _make_table(["4s", "5s", "6s", "Ts", "Js"],
                    [["7s", "Qd"],    # flush (straight flush check fails, no straight in flush)
                     ["2s", "3s"]],   # straight flush 2-6
                    [50.5, 50.5]),
        # board Ts Jd Qc 2h 7d: broadway straight (ace-high, found on the first try) vs a pair
        _make_table(["Ts", "Jd", "Qc", "2h", "7d"],
                    [["Ah", "Kd"], ["Kc", "Kh"], None],
                    [64.0, 22.5, 9.75]),
        # split pot: both players play the board straight 8-Q
        _make_table(["8c", "9d", "Th", "Js", "Qc"],
                    [["2h", "3d"], ["2c", "4d"]],
                    [70.5, 33.25]),
    ]
