"""A list only an inner range loop appends to, inside an outer range loop: the rows each outer
iteration appended, padded and counted, kept in order after the loop (passes/nested_appends.py).
A list an inner `while` appends to, any number of rows per outer iteration: the outer loop counts
them, then fills a buffer of that many (counted_rows.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case


class DarkTiles(nn.Module):
    """Tiles of a grid, visited row by row: bright tiles are skipped, the others' features kept."""

    def forward(self, grid):
        feats = []
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if grid[i, j].sum() > 0:
                    continue
                feats.append(grid[i, j] * 2.0)
        if not feats:
            return torch.zeros(3), torch.zeros((), dtype=torch.int64)
        return torch.stack(feats).mean(0), torch.tensor(len(feats))


class HalfGridPairs(nn.Module):
    """Every other cell of a grid over ranges derived from its sizes, a row kept per cell."""

    def forward(self, grid):
        rows = [grid[0, 0]]
        for i in range(grid.shape[0] // 2):
            for j in range(grid.shape[1] // 2):
                rows.append(grid[2 * i, 2 * j] - grid[2 * i + 1, 2 * j + 1])
        return torch.stack(rows)


class DraftRounds(nn.Module):
    """Rounds of up to 3 proposals while a budget lasts: a round stops at the first proposal below
    the threshold (kept, as the round's last), and the whole decode stops at a negative one."""

    def forward(self, x, budget):
        out = []
        used = torch.zeros((), dtype=torch.int64)
        pos = torch.zeros((), dtype=torch.int64)
        done = False
        while used < budget and not done:
            for k in range(3):
                v = x[(pos + k) % x.shape[0]]
                out.append(v * 2.0)
                used = used + 1
                if v < 0.0 or used >= budget:
                    done = True
                    break
                if v < 0.5:
                    break
            pos = pos + 2
        if len(out) == 0:
            return torch.zeros(0)
        return torch.stack(out)


def _grid(a: int, b: int, seed: int, shift: float = 0.0) -> tuple:
    return (torch.randn(a, b, 3, generator=torch.Generator().manual_seed(seed)) + shift,)


class TipsPerBin(nn.Module):
    """A truck tips whenever its body is full (a big bin may need several tips), skips near-empty
    bins, ends the shift on a distance budget; a last tip after the loop."""

    def forward(self, kg, legs):
        load = torch.zeros(())
        km = torch.zeros(())
        tips = [torch.zeros(())]  # the depot's opening weigh-in
        for i in range(kg.shape[0]):
            km = km + legs[i]
            if km > 10.0:
                break
            if kg[i] < 1.0:
                continue
            remaining = kg[i]
            while load + remaining > 100.0:
                take = 100.0 - load
                remaining = remaining - take
                tips.append(load + take)
                km = km + 0.5
                load = torch.zeros(())
            load = load + remaining
        tips.append(load)
        return torch.stack(tips), km


CASES = [
    Case(
        "an_inner_loop_with_continue_appends_to_a_list_of_the_outer_loop",
        DarkTiles,
        _grid(4, 5, 0),
        [_grid(2, 3, 1), _grid(3, 3, 2, 5.0), _grid(6, 2, 3)],
        ({0: torch.export.Dim("rows", min=2, max=16), 1: torch.export.Dim("cols", min=2, max=16)},),
        constructs=("for->scan",),
    ),
    Case(
        "nested_loops_over_derived_sizes_append_to_one_list",
        HalfGridPairs,
        _grid(4, 6, 4),
        [_grid(4, 4, 5), _grid(5, 9, 6), _grid(9, 4, 7)],
        ({0: torch.export.Dim("rows", min=4, max=16), 1: torch.export.Dim("cols", min=4, max=16)},),
    ),
    Case(
        "a_while_loop_whose_inner_loop_appends_until_a_break",
        DraftRounds,
        (torch.tensor([0.9, 0.8, 0.2, 0.7, 0.9, 0.6, 0.3, -0.5]), torch.tensor(9)),
        [
            (torch.tensor([0.9, 0.8, 0.7, 0.6]), torch.tensor(5)),
            (torch.tensor([0.9, -0.2, 0.8]), torch.tensor(20)),
            (torch.tensor([0.2, 0.3, 0.9]), torch.tensor(0)),
            (torch.tensor([0.3, 0.9, 0.1, 0.8, 0.7, 0.6]), torch.tensor(7)),
        ],
        ({0: torch.export.Dim("values", min=2, max=32)}, None),
    ),
    Case(
        "while_appends_any_number_of_rows_per_outer_iteration",
        TipsPerBin,
        (torch.tensor([30.0, 0.5, 250.0, 40.0, 60.0]), torch.tensor([1.0, 1.0, 1.0, 1.0, 1.0])),
        [
            (torch.tensor([5.0, 6.0]), torch.tensor([1.0, 1.0])),  # no tip before the last
            (torch.tensor([0.2, 0.3, 0.1]), torch.tensor([1.0, 1.0, 1.0])),  # every bin skipped
            (torch.tensor([90.0, 420.0, 30.0, 80.0]), torch.tensor([2.0, 2.0, 2.0, 2.0])),  # several tips
            (torch.full((20,), 70.0), torch.full((20,), 1.0)),  # the distance budget ends the shift
        ],
        ({0: torch.export.Dim("bins", min=2, max=32)}, {0: torch.export.Dim("bins", min=2, max=32)}),
        constructs=("while->while_loop",),
    ),
]
