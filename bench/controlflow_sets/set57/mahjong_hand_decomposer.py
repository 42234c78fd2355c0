"""Riichi mahjong hand checker with a discard hint.

A hand is a list of tile ids (0-8 characters, 9-17 circles, 18-26 bamboo,
27-33 honours).  A complete hand has 3k+2 concealed tiles that split into
one pair and k melds (three of a kind, or a run of three in one suit);
fourteen tiles forming seven pairs also win.  The decomposition tries each
possible pair and peels melds off from the lowest tile up.  For a hand that
is not complete, a small policy model trained on game records suggests the
tile to discard.
"""
import torch
import torch.nn as nn

N_TILE_KINDS = 34


def peel_melds(counts):
    """Number of melds if the tiles split into melds only, else -1 (lowest-tile-first greedy)."""
    c = counts.clone()
    melds = 0
    for t in range(N_TILE_KINDS):
        while c[t] > 0:
            if c[t] >= 3:
                c[t] -= 3
            elif t < 27 and t % 9 <= 6 and c[t + 1] > 0 and c[t + 2] > 0:
                c[t] -= 1
                c[t + 1] -= 1
                c[t + 2] -= 1
            else:
                return -1
            melds += 1
    return melds


class HandDecomposer(nn.Module):
    def __init__(self):
        super().__init__()
        self.discard_policy = nn.Linear(N_TILE_KINDS, N_TILE_KINDS)

    def forward(self, hand):
        # hand: (n_tiles,) int64 tile ids of the concealed part of the hand
        counts = torch.bincount(hand, minlength=N_TILE_KINDS)
        no_discard = torch.tensor(-1)
        if hand.shape[0] % 3 != 2:
            # wrong number of tiles to be complete (e.g. during a call) -> nothing to evaluate
            return torch.tensor(0), torch.tensor(-1), torch.tensor(0), no_discard

        winning = False
        pair_tile = -1
        melds = 0
        for p in range(N_TILE_KINDS):
            if counts[p] < 2:
                continue
            counts[p] -= 2
            melds = peel_melds(counts)
            counts[p] += 2
            if melds >= 0:
                winning = True
                pair_tile = p
                break
        else:
            if hand.shape[0] == 14 and (counts == 2).sum() == 7:
                winning = True       # seven pairs
                melds = 0

        if winning:
            return torch.tensor(1), torch.tensor(pair_tile), torch.tensor(melds), no_discard
        logits = self.discard_policy(counts.float() / 4.0)
        logits = logits.masked_fill(counts == 0, float("-inf"))
        return torch.tensor(0), torch.tensor(-1), torch.tensor(0), torch.argmax(logits)


def model():
    torch.manual_seed(5720)
    return HandDecomposer().eval()


N_TILES = torch.export.Dim("n_tiles", min=2, max=14)


def _hand(tiles):
    return torch.tensor(sorted(tiles), dtype=torch.long)


def example_inputs():
    # 1m1m1m 2m3m4m 5p6p7p 9s9s9s + 4p4p: the 1m pair is tried first and fails, 4p pair wins
    return (_hand([0, 0, 0, 1, 2, 3, 12, 13, 14, 26, 26, 26, 12, 12]),)


def dynamic_shapes():
    return ({0: N_TILES},)


def verify_inputs():
    return [
        # complete hand, winning pair found after a failed pair (1m) -> break
        example_inputs(),
        # 2 tiles: a lone pair of east winds completes the hand (no melds)
        (_hand([27, 27]),),
        # seven pairs -> every pair leaves a single pair behind, for/else accepts seven pairs
        (_hand([0, 0, 4, 4, 8, 8, 10, 10, 19, 19, 28, 28, 33, 33]),),
        # 14 tiles, not complete: with either pair out, the 1m 3m gap stops the peeling at once
        # -> discard hint from the policy
        (_hand([0, 2, 7, 8, 9, 10, 12, 29, 30, 30, 31, 31, 31, 18]),),
        # 4 tiles: not 3k+2 -> early return
        (_hand([5, 6, 7, 7]),),
        # 5 tiles: red dragon pung + white dragon pair (honours cannot form runs)
        (_hand([32, 32, 32, 31, 31]),),
        # 8m 9m 1p + 5s pair: a run cannot start on 8m (edge of the suit) -> not complete
        (_hand([7, 8, 9, 22, 22]),),
        # 1m2m3m, east south west + north pair: lone honours cannot start a run -> not complete
        (_hand([0, 1, 2, 27, 28, 29, 30, 30]),),
        # 11 tiles without a single pair -> pair loop runs out, not 14 tiles -> not complete
        (_hand([0, 1, 3, 9, 11, 13, 18, 20, 22, 27, 28]),),
    ]
