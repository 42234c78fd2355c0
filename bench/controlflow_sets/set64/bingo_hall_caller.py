"""Electronic bingo hall: replay the caller's balls against all sold cards.

Cards are 5x5 grids of numbers (centre 0 = free space).  After every call
the cards that contain the number are daubed, and the game checks the active
winning patterns (any line, four corners) in order.  The game ends at the
first call that produces a winner; if the caller's sequence ends first, the
game is undecided.  Calls matching no card are skipped.
"""
import torch
import torch.nn as nn


def line_complete(marked, dim):
    """Cards with a full row (dim=2) or column (dim=1)."""
    return marked.all(dim=dim).any(dim=1)


def diagonal_complete(marked):
    idx = torch.arange(5)
    main = marked[:, idx, idx].all(dim=1)
    anti = marked[:, idx, 4 - idx].all(dim=1)
    return main | anti


def any_line(marked):
    return line_complete(marked, 2) | line_complete(marked, 1) | diagonal_complete(marked)


class BingoGame(nn.Module):
    def __init__(self, patterns=("line", "corners")):
        super().__init__()
        self.patterns = list(patterns)

    def _winners(self, marked):
        won = torch.zeros(marked.shape[0], dtype=torch.bool)
        pattern_id = torch.full((marked.shape[0],), -1)
        for pid, name in enumerate(self.patterns):
            if name == "line":
                hit = any_line(marked)
            else:  # "corners"
                hit = marked[:, 0, 0] & marked[:, 0, 4] & marked[:, 4, 0] & marked[:, 4, 4]
            pattern_id = torch.where(hit & ~won, torch.full_like(pattern_id, pid), pattern_id)
            won = won | hit
        return won, pattern_id

    def forward(self, cards, calls):
        marked = cards == 0
        for k in range(calls.shape[0]):
            hit = cards == calls[k]
            if not hit.any():
                continue
            marked = marked | hit
            won, pattern_id = self._winners(marked)
            if won.any():
                first = won.nonzero()[0, 0]
                return first, pattern_id[first], torch.tensor(k + 1), marked
        return torch.tensor(-1), torch.tensor(-1), torch.tensor(calls.shape[0]), marked


def model():
    torch.manual_seed(64)
    return BingoGame().eval()


def _cards(n, seed):
    g = torch.Generator().manual_seed(seed)
    cards = []
    for _ in range(n):
        cols = [torch.randperm(15, generator=g)[:5] + 1 + 15 * c for c in range(5)]
        card = torch.stack(cols, dim=1)
        card[2, 2] = 0
        cards.append(card)
    return torch.stack(cards)


CARDS = _cards(6, seed=0)


def example_inputs():
    # card 2, row 0 called in full, mixed with a few other numbers
    row = CARDS[2, 0].tolist()
    calls = [row[0], _absent(CARDS, 1)[0], row[1], CARDS[4, 3, 1].item(), row[2], row[3], row[4], CARDS[0, 1, 1].item()]
    return CARDS, torch.tensor(calls)


def dynamic_shapes():
    n = torch.export.Dim("cards", min=2, max=64)
    k = torch.export.Dim("calls", min=2, max=75)
    return ({0: n}, {0: k})


def _absent(cards, count):
    present = set(cards.flatten().tolist())
    return [v for v in range(1, 76) if v not in present][:count]


def verify_inputs():
    c = CARDS
    corners = [c[1, 0, 0].item(), c[1, 0, 4].item(), c[1, 4, 0].item(), c[1, 4, 4].item()]
    col_with_free = [c[3, r, 2].item() for r in (0, 1, 3, 4)]
    return [
        example_inputs(),                                                 # miss (continue), daubs, row win on 7th call -> early return
        (c, torch.tensor(_absent(c, 3) + [c[0, 0, 0].item(), c[5, 2, 1].item()])),  # misses + daubs, nobody wins: loop ends, no winner
        (c, torch.tensor(corners)),                                       # four-corners pattern wins (pattern 1)
        (c, torch.tensor(col_with_free)),                                 # column through the free space wins after 4 calls
        (c[:2], torch.tensor(_absent(c[:2], 2))),                         # 2 cards, every call misses
    ]
