"""Battleship opponent: hunt/target shot selection over a learned prior.

A small CNN (with coordinate channels, ships are not placed uniformly)
turns the shot board into a prior heat map.  If there are
unsunk hits the AI is in target mode: from every hit it walks along each
direction over consecutive hits and proposes the first unknown cell beyond
(preferring cells that extend a line of two or more hits).  With no usable
target cell it hunts: on big boards with a checkerboard parity bonus, and
always only among unknown cells.

KIND X.  Constructs: 1 (if on .any() / cell values), 2 (early return when
the board is full; helper returning one of two lists), 3 (and/not chained
bounds and tensor tests), 4 (while walking along a line of hits, tensor
condition), 5 (for over the data-dependent number of hits), 6 (continue on
tensor cell values), 7 (helper + CNN submodule), 8 (branch on the dynamic
board size), 9 (ModuleList of convs, static direction list).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

KIND = "X"
CONSTRUCTS = (1, 2, 3, 4, 5, 6, 7, 8, 9)

UNKNOWN, MISS, HIT, SUNK = 0, 1, 2, 3
DIRS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


class ShotPrior(nn.Module):
    def __init__(self, hidden=8, layers=3):
        super().__init__()
        chans = [6] + [hidden] * (layers - 1)
        self.convs = nn.ModuleList([nn.Conv2d(c, hidden, 3, padding=1) for c in chans])
        self.out = nn.Conv2d(hidden, 1, 1)
        for conv in list(self.convs) + [self.out]:
            nn.init.normal_(conv.weight, std=0.3)

    def forward(self, board):
        n = board.shape[0]
        onehot = F.one_hot(board.long(), 4).permute(2, 0, 1).float()
        coords = torch.linspace(-1.0, 1.0, n)
        rows = coords.view(n, 1).expand(n, n)
        cols = coords.view(1, n).expand(n, n)
        x = torch.cat([onehot, rows[None], cols[None]], dim=0).unsqueeze(0)
        for conv in self.convs:
            x = torch.relu(conv(x))
        return self.out(x)[0, 0]


class BattleshipHuntTarget(nn.Module):
    def __init__(self, parity_bonus=0.5, big_board=10):
        super().__init__()
        self.prior = ShotPrior()
        self.parity_bonus = parity_bonus
        self.big_board = big_board

    def _target_cells(self, board, hits):
        n = board.shape[0]
        line, adjacent = [], []
        for k in range(hits.shape[0]):
            r, c = int(hits[k, 0]), int(hits[k, 1])
            for dr, dc in DIRS:
                rr, cc = r + dr, c + dc
                while 0 <= rr < n and 0 <= cc < n and board[rr, cc] == HIT:
                    rr, cc = rr + dr, cc + dc
                if not (0 <= rr < n and 0 <= cc < n):
                    continue
                if board[rr, cc] != UNKNOWN:
                    continue  # line ends at a miss or a sunk ship
                if (rr - dr, cc - dc) != (r, c):
                    line.append((rr, cc))
                else:
                    adjacent.append((rr, cc))
        return line if line else adjacent

    def forward(self, board):
        # board: (N, N) codes 0 unknown, 1 miss, 2 hit, 3 sunk
        n = board.shape[0]
        unknown = board == UNKNOWN
        if not unknown.any():
            return torch.tensor([-1, -1]), torch.tensor(-1), torch.zeros_like(board)
        heat = self.prior(board)

        hits = torch.nonzero(board == HIT)
        cells = self._target_cells(board, hits) if hits.shape[0] > 0 else []
        if cells:
            idx = torch.tensor(cells)
            best = torch.argmax(heat[idx[:, 0], idx[:, 1]])
            return idx[best], torch.tensor(1), heat

        if n >= self.big_board:
            rr = torch.arange(n).unsqueeze(1)
            cc = torch.arange(n).unsqueeze(0)
            heat = heat + self.parity_bonus * ((rr + cc) % 2 == 0).float()
        masked = heat.masked_fill(~unknown, float("-inf"))
        flat = torch.argmax(masked)
        cell = torch.stack([flat // n, flat % n])
        return cell, torch.tensor(0), heat


def model():
    torch.manual_seed(61013)
    return BattleshipHuntTarget().eval()


def make_board(n, misses=(), hits=(), sunk=()):
    b = torch.zeros(n, n)
    for r, c in misses:
        b[r, c] = MISS
    for r, c in hits:
        b[r, c] = HIT
    for r, c in sunk:
        b[r, c] = SUNK
    return (b,)


def example_inputs():
    # 8x8, a few misses, one isolated hit: target mode, adjacent cells only
    return make_board(8, misses=[(0, 0), (2, 5), (6, 1)], hits=[(4, 4)])


def dynamic_shapes():
    n = Dim("board", min=5, max=16)
    return ({0: n, 1: n},)


def verify_inputs():
    full = torch.ones(6, 6)
    full[2, 3] = HIT
    full[0, :] = SUNK
    return [
        # isolated hit: four adjacent unknown cells, no line
        example_inputs(),
        # two hits in a row at the edge: walk along the hits; the off-board direction
        # and the miss above are skipped; the cell extending the line is preferred
        make_board(7, misses=[(2, 1)], hits=[(3, 0), (3, 1)]),
        # hit completely surrounded by misses/sunk: no target cell -> hunt on a small board
        make_board(6, misses=[(1, 2), (3, 2), (2, 1)], hits=[(2, 2)], sunk=[(2, 3)]),
        # nothing hit yet on a big board (12 >= 10): hunt with parity bonus
        make_board(12, misses=[(0, 0), (5, 5), (11, 3)], sunk=[(7, 7), (7, 8)]),
        # every cell already shot: early return
        (full,),
    ]
