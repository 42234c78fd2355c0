"""Tuples of ints and floats appended to a list (mixed_rows.MixedRow), read back by position:

- a card game whose tricks are lists of ``(player, suit, rank)``; the trick's winner, read from the
  list at a position a tensor test picked, is the player who leads next and an index into the
  scores; the card each player plays is picked by ``int(score.argmax().item())`` and marked played
  at ``played[p, idx]``.
"""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class TrickRounds(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Linear(2, 1)

    def beats(self, suit, rank, best_suit, best_rank):
        return bool(((suit == best_suit) & (rank > best_rank)) | ((suit == 3) & (best_suit != 3)))

    def winner(self, trick):
        best = 0
        for k in range(1, len(trick)):
            _, suit, rank = trick[k]
            _, best_suit, best_rank = trick[best]
            if self.beats(suit, rank, best_suit, best_rank):
                best = k
        return trick[best][0]

    def forward(self, suits, ranks):
        n = suits.shape[1]
        played = torch.zeros(4, n, dtype=torch.bool)
        won = torch.zeros(4, dtype=torch.long)
        leader = 0
        for _ in range(n):
            trick = []
            for k in range(4):
                p = (leader + k) % 4
                feats = torch.stack([ranks[p] / 14.0, (suits[p] == 3).float()], dim=1)
                idx = int(self.score(feats).squeeze(-1).masked_fill(played[p], -1e9).argmax().item())
                played[p, idx] = True
                trick.append((p, suits[p, idx], ranks[p, idx]))
            leader = self.winner(trick)
            won[leader] += 1
        return won, played.sum(dim=0)


def _deal(n: int, seed: int) -> tuple:
    deck = torch.randperm(52, generator=torch.Generator().manual_seed(seed))[: 4 * n].reshape(4, n)
    return deck // 13, (deck % 13 + 2).float()


CASES = [
    Case(
        "a_winner_read_from_a_list_of_tuples_of_ints_and_floats",
        seeded(TrickRounds),
        _deal(5, 1),
        [_deal(2, 2), _deal(13, 3), _deal(8, 4)],
        ({1: torch.export.Dim("cards", min=2, max=13)}, {1: torch.export.Dim("cards", min=2, max=13)}),
        constructs=("for->while_loop",),
    ),
]
