"""Constant tables a tensor `if` picks (set63's checkers, reduced): a helper returns one of two
module-level lists of moves of different lengths, and the caller loops over the one it got. The
lists cross the cond as tensors, one row per entry (table_outputs.py); the loop over them is a
graph loop. The best move so far is an optional that becomes a tuple (``best = (dr, dc)``), carried
entry by entry (passes/optionals.py, list_state.result_lists_defined)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

_SHORT = [(-1, -1), (-1, 1)]
_LONG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def _moves(piece):
    if piece > 1.5:
        return _LONG
    return _SHORT


class SumOverPickedTable(nn.Module):
    """The values at the picked moves' squares around the centre, summed."""

    def forward(self, grid, piece):
        total = torch.zeros(())
        for dr, dc in _moves(piece):
            total = total + grid[1 + dr, 1 + dc] * (dr + 2)
        return total


class BestMoveEachStep(nn.Module):
    """A walk on the grid: each step takes the move to the best-valued free square, until none is
    free or the budget runs out; the best move is None until one is found."""

    def forward(self, grid, piece):
        n = grid.shape[0]
        r, c = n // 2, n // 2
        steps = torch.zeros(())
        seen = grid.clone()
        while steps < 3:
            best, best_val = None, None
            for dr, dc in _moves(piece):
                if not (0 <= r + dr < n and 0 <= c + dc < n):
                    continue
                val = seen[r + dr, c + dc]
                if val <= 0:
                    continue
                if best is None or val > best_val:
                    best, best_val = (dr, dc), val
            if best is None:
                break
            dr, dc = best
            r, c = r + dr, c + dc
            seen[r, c] = -1.0
            steps = steps + 1
        return seen, steps


class DiceSteps(nn.Module):
    """Each roll's dice as a list whose length a tensor ternary picks (a double plays four times):
    ``[d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]`` of ints read from the rolls inside a
    graph loop, then played one by one while the budget lasts (set68 backgammon, reduced)."""

    def forward(self, rolls, budget):
        moved = torch.zeros(rolls.shape[0], dtype=torch.long)
        for t in range(rolls.shape[0]):
            d1, d2 = int(rolls[t, 0]), int(rolls[t, 1])
            dice = [d1] * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]
            i = 0
            total = torch.zeros((), dtype=torch.long)
            while i < len(dice) and total < budget:
                total = total + dice[i] * (i + 1)
                i += 1
            moved[t] = total
        return moved


def _grid(n, seed):
    return torch.rand(n, n, generator=torch.Generator().manual_seed(seed)) - 0.2


_N = torch.export.Dim("n", min=3, max=12)

CASES = [
    Case(
        "a_loop_over_one_of_two_constant_tables_of_different_lengths_a_tensor_if_picked",
        seeded(SumOverPickedTable),
        (_grid(3, 1), torch.tensor(2.0)),  # the long table
        [(_grid(3, 2), torch.tensor(1.0))],  # the short one
        ({0: _N, 1: _N}, None),
        constructs=("if->cond",),
    ),
    Case(
        "a_best_move_kept_as_an_optional_tuple_over_a_picked_table_in_a_graph_loop",
        seeded(BestMoveEachStep),
        (_grid(6, 3), torch.tensor(2.0)),
        [
            (_grid(5, 4), torch.tensor(1.0)),  # the short table
            (-torch.ones(4, 4), torch.tensor(2.0)),  # nothing free: no move at all
            (_grid(9, 5), torch.tensor(1.0)),
        ],
        ({0: _N, 1: _N}, None),
        constructs=("while->while_loop",),
    ),
    Case(
        "dice_lists_of_two_lengths_a_tensor_ternary_picks_from_ints_read_in_a_graph_loop",
        seeded(DiceSteps),
        (torch.tensor([[6, 5], [4, 4], [3, 1], [2, 2]]), torch.tensor(30)),
        [
            (torch.tensor([[1, 2], [5, 5], [6, 6]]), torch.tensor(12)),  # the budget ends a double
            (torch.tensor([[3, 3], [1, 1]]), torch.tensor(100)),  # doubles only
            (torch.tensor([[2, 5], [6, 1], [4, 3]]), torch.tensor(5)),  # no doubles
        ],
        ({0: torch.export.Dim("rolls", min=2, max=30)}, None),
        constructs=("for->while_loop",),
    ),
]
