"""Constraint propagation for a batch of 4x4 Sudoku puzzles (mini puzzles in a kids' app).

Candidates are eliminated from every row, column and 2x2 box containing a placed digit,
round after round, until every cell is decided or a round makes no progress.  A round that
leaves some cell without candidates means the batch contains an invalid puzzle and the
solver bails out.  Status: 1 solved, 0 stuck (needs search), -1 contradiction.
"""
import torch
from torch import nn


class Sudoku4ConstraintPropagator(nn.Module):
    def __init__(self):
        super().__init__()
        rows = [[4 * r + c for c in range(4)] for r in range(4)]
        cols = [[4 * r + c for r in range(4)] for c in range(4)]
        boxes = [[4 * (br + r) + bc + c for r in range(2) for c in range(2)]
                 for br in (0, 2) for bc in (0, 2)]
        self.units = [torch.tensor(u) for u in rows + cols + boxes]

    def _eliminate(self, cand):
        solved = cand.sum(-1) == 1
        new = cand.clone()
        for unit in self.units:
            c = new[:, unit]
            s = solved[:, unit]
            taken = (c & s[..., None]).any(1)
            new[:, unit] = c & ~(taken[:, None, :] & ~s[..., None])
        return new

    def _decode(self, cand):
        single = cand.sum(-1) == 1
        return torch.where(single, cand.long().argmax(-1) + 1, torch.zeros_like(single, dtype=torch.int64))

    def forward(self, givens):
        # givens: [B, 16] int64, 0 = empty, 1..4 = placed digit
        digits = torch.arange(1, 5)
        placed = (givens > 0)[..., None]
        cand = torch.where(placed, givens[..., None] == digits, torch.ones_like(placed).expand(-1, -1, 4))
        rounds = 0
        progress = True
        while progress and (cand.sum(-1) > 1).any():
            new = self._eliminate(cand)
            if (new.sum(-1) == 0).any():
                return self._decode(new), torch.tensor(rounds + 1), torch.tensor(-1)
            progress = bool((new != cand).any())
            cand = new
            rounds += 1
        status = 1 if not (cand.sum(-1) > 1).any() else 0
        return self._decode(cand), torch.tensor(rounds), torch.tensor(status)


def model():
    torch.manual_seed(0)
    return Sudoku4ConstraintPropagator().eval()


SOLUTION = [1, 2, 3, 4,
            3, 4, 1, 2,
            2, 1, 4, 3,
            4, 3, 2, 1]


def _puzzle(blanks, base=SOLUTION):
    p = list(base)
    for i in blanks:
        p[i] = 0
    return p


def _batch(*puzzles):
    return (torch.tensor(puzzles, dtype=torch.int64),)


def example_inputs():
    return _batch(_puzzle([0, 5, 10, 15]), _puzzle([1, 2, 7, 12, 13]))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16)},)


def verify_inputs():
    relabel = [0, 2, 1, 4, 3]   # swap digits 1<->2, 3<->4: another valid solution
    other = [relabel[d] for d in SOLUTION]
    return [
        _batch(SOLUTION, other),                                          # already solved
        _batch(_puzzle([0, 6, 11, 13]), _puzzle([3, 4, 9, 14], other)),   # one round
        _batch(_puzzle([0, 1, 2, 4, 5, 8, 10, 15]), _puzzle([3, 7, 11, 12, 13, 14], other)),  # several rounds
        _batch([0] * 16, _puzzle([0, 1])),                                # empty grid: no progress
        _batch([1, 2, 3, 0, 0, 0, 0, 4] + [0] * 8, _puzzle([5])),         # invalid puzzle
        example_inputs(),
    ]
