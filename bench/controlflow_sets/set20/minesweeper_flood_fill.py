"""Minesweeper reveal engine with a learned risk overlay (9x9 board).

Clicking a mine returns early (game over). Otherwise the clicked cell is
revealed and, while the frontier of zero-count cells is non-empty, the reveal
floods outwards; the flood stops early once a reveal cap is reached.
Output: revealed mask [9, 9] int64 (-1 everywhere on game over) and risk map.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def neighbor_sum(m):
    p = F.pad(m, (1, 1, 1, 1))
    total = torch.zeros_like(m)
    for dy in range(3):  # static
        for dx in range(3):  # static
            if dy != 1 or dx != 1:  # static
                total = total + p[dy:dy + 9, dx:dx + 9]
    return total


class MinesweeperReveal(nn.Module):
    def __init__(self, reveal_cap=20):
        super().__init__()
        self.reveal_cap = reveal_cap
        self.risk = nn.Conv2d(1, 1, 3, padding=1)

    def forward(self, mines, click):  # mines: [9, 9] int64 0/1; click: [2] int64
        r, c = click[0], click[1]
        if mines[r, c] == 1:
            return torch.full((9, 9), -1, dtype=torch.long), torch.ones(9, 9)
        adj = neighbor_sum(mines)
        revealed = (torch.arange(9)[:, None] == r) & (torch.arange(9)[None, :] == c)
        frontier = revealed & (adj == 0)
        while frontier.any():
            grown = (neighbor_sum(frontier.long()) > 0) & (mines == 0) & ~revealed
            revealed = revealed | grown
            frontier = grown & (adj == 0)
            if revealed.sum() > self.reveal_cap:
                break
        risk = torch.sigmoid(self.risk(adj.float()[None, None] / 8.0))[0, 0]
        return revealed.long(), torch.where(revealed, torch.zeros_like(risk), risk)


def _board(cells):
    m = torch.zeros(9, 9, dtype=torch.long)
    for y, x in cells:
        m[y, x] = 1
    return m


def model():
    torch.manual_seed(0)
    return MinesweeperReveal().eval()


def example_inputs():
    return (_board([(0, 4), (1, 4), (2, 4), (3, 4), (3, 3), (3, 2), (3, 1), (3, 0)]), torch.tensor([0, 0]))


def verify_inputs():
    crowded = _board([(1, 1), (1, 3), (3, 1), (5, 5), (7, 2), (2, 7)])
    return [
        (crowded, torch.tensor([5, 5])),   # clicked a mine: game over
        (crowded, torch.tensor([2, 2])),   # numbered cell: no flood
        (crowded, torch.tensor([8, 8])),   # big open area: cap stops the flood
    ]
