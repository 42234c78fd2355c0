"""Tetris-style legalizer for standard-cell placement (VLSI physical design).

Kind X.  Constructs: 1, 2, 3, 5, 6, 7, 9.
Cells from global placement (desired x, desired row coordinate y, width) are
visited left to right; each is tried in every row (Python loop over the
configured rows, a helper returns None when the row is full) and goes where
the timing-weighted displacement is smallest.  Cells that fit nowhere
overflow; too many overflows abort the pass.
"""
import torch
import torch.nn as nn
from torch.export import Dim

CELLS = Dim("cells", min=2, max=64)


def legal_x(row_end, x, w, row_width):
    xl = torch.maximum(x, row_end)
    if xl + w > row_width:
        return None
    return xl


class Criticality(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, cells):
        return 1.0 + torch.sigmoid(self.mlp(cells / 10.0)).squeeze(-1)   # timing weight in (1, 2)


class RowLegalizer(nn.Module):
    def __init__(self, num_rows=4, row_width=20.0, max_overflow=3):
        super().__init__()
        self.crit = Criticality()
        self.num_rows = num_rows
        self.row_width = row_width
        self.max_overflow = max_overflow

    def forward(self, cells):
        crit = self.crit(cells)
        n = cells.shape[0]
        row_end = [torch.zeros(()) for _ in range(self.num_rows)]
        pos = torch.full((n, 2), -1.0)
        overflow = torch.zeros(n)

        for i in torch.argsort(cells[:, 0]).tolist():
            x, y, w = cells[i, 0], cells[i, 1], cells[i, 2]
            best_row, best_cost, best_x = -1, None, None
            for r in range(self.num_rows):
                xl = legal_x(row_end[r], x, w, self.row_width)
                if xl is None:
                    continue
                cost = crit[i] * (xl - x).abs() + (y - r).abs()
                if best_cost is None or cost < best_cost:
                    best_row, best_cost, best_x = r, cost, xl
            if best_row < 0:
                overflow[i] = 1.0
                if overflow.sum() >= self.max_overflow:
                    break                                   # unroutable: give up on this pass
                continue
            row_end[best_row] = best_x + w
            pos[i, 0] = best_x
            pos[i, 1] = float(best_row)

        placed = pos[:, 0] >= 0
        disp = torch.where(placed, (pos - cells[:, :2]).abs().sum(dim=1), torch.zeros(n))
        return pos, overflow, disp.sum()


def model():
    torch.manual_seed(63017)
    return RowLegalizer().eval()


def _cells(n, seed, x_max=18.0, w_lo=1.0, w_hi=3.0, y_center=None):
    g = torch.Generator().manual_seed(seed)
    x = torch.randperm(10 * n, generator=g)[:n].float() / (10 * n) * x_max + 0.13
    if y_center is None:
        y = torch.rand(n, generator=g) * 3.0
    else:
        y = y_center + 0.3 * torch.rand(n, generator=g)
    y = torch.round(y * 7.0) / 7.0 + 0.04            # keep clear of half-row ties
    w = w_lo + torch.randint(0, int(2 * (w_hi - w_lo)) + 1, (n,), generator=g).float() / 2.0
    return (torch.stack([x, y, w], dim=1),)


def example_inputs():
    return _cells(12, 1)


def dynamic_shapes():
    return ({0: CELLS},)


def verify_inputs():
    return [
        example_inputs(),                          # sparse: every cell placed, some pushed to another row
        _cells(2, 2),                              # two cells
        _cells(40, 3, w_lo=2.0, w_hi=4.0),         # far too many cells: overflows pile up -> break
        _cells(25, 4, w_lo=2.0, w_hi=3.5, x_max=18.0, y_center=1.0),  # crowded: one cell overflows (continue)
    ]
