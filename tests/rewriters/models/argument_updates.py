"""A helper that stores into a tensor its caller passed (``visible[r, c] = 1.0``), with a `while` of
its own and a `return` inside it, called as a statement in a loop over a dynamic size: the caller
sees the stores (passes/argument_updates.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

WIDTH = torch.export.Dim("width", min=2, max=24)


def light_column(grid, lit, c, limit):
    """Light column ``c`` from the top until a wall or ``limit`` cells; the wall is lit too."""
    r = 0
    while grid[r, c] < 0.5:
        lit[r, c] = 1.0
        r += 1
        if r >= limit:
            return
    lit[r, c] = 0.5


class ColumnLighting(nn.Module):
    def forward(self, grid):
        lit = torch.zeros_like(grid)
        for c in range(grid.shape[1]):
            light_column(grid, lit, c, grid.shape[0])
        return lit, lit.sum()


def _grid(rows, walls):
    g = torch.zeros(rows, len(walls))
    for c, r in enumerate(walls):
        if r is not None:
            g[r, c] = 1.0
    return (g,)


CASES = [
    Case(
        "helper_storing_into_its_argument_in_a_loop",
        seeded(ColumnLighting),
        _grid(5, [2, None, 0, 4, 1]),  # walls at several depths, one open column
        [_grid(5, [None, None]), _grid(5, [0, 3]), _grid(5, [1, None, 2, 0, None, 1, 2, None])],
        ({1: WIDTH},),
        constructs=("for->while_loop",),
    ),
]
