"""Appends between `break`s on tensor tests: after two `break`s (the second inside the first's
guard), each iteration that reaches the append adds one row and one that breaks adds none; with
a `break` after the append, the iteration that breaks there has added its row."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=2, max=32)
POSITIONS = torch.export.Dim("positions", min=3, max=32)


class TwoStops(nn.Module):
    """Scaled rows until a very negative row, or a scaled row over 5."""

    def forward(self, x):
        outs = []
        for t in range(x.shape[0]):
            if x[t].sum() < -2.0:
                break
            y = x[t] * 2.0
            if y.max() > 5.0:
                break
            outs.append(y)
        if len(outs) == 0:
            return x[:0]
        return torch.stack(outs)


class MaskedMean(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 4)

    def forward(self, x, mask):
        w = mask.float()
        return (w @ self.proj(x)) / w.sum().clamp(min=1.0)


class SpreadReadouts(nn.Module):
    """A mark spreading one position right per step, for at most ``steps`` (a tensor) steps: it
    stops when nothing new is marked, or, once read out, when every position is marked. One
    readout of the newly marked positions per step, after the one of the start."""

    def __init__(self):
        super().__init__()
        self.readout = MaskedMean()

    def forward(self, x, start, steps):
        marked = start.clone()
        front = start
        outs = [self.readout(x, start)]
        for _ in range(int(steps.item())):
            new = torch.cat([torch.zeros_like(front[:1]), front[:-1]]) & ~marked
            if not new.any():
                break
            marked = marked | new
            front = new
            outs.append(self.readout(x, new))
            if marked.all():
                break
        return torch.stack(outs)


def _rows(*rows):
    return (torch.tensor(rows),)


def _spread(n, first, steps):
    x = torch.linspace(-1.0, 1.0, n * 3).reshape(n, 3)
    return x, torch.arange(n) == first, torch.tensor([steps])


CASES = [
    Case(
        "append_after_two_breaks",
        seeded(TwoStops),
        _rows([0.5, 1.0], [1.0, 0.2], [-2.0, -1.5], [0.3, 0.3]),
        [
            _rows([0.5, 1.0], [3.0, 0.2], [0.1, 0.1]),
            _rows([0.5, 1.0], [1.0, 0.2], [0.1, 0.1]),
            _rows([-3.0, -1.0], [1.0, 0.2]),
        ],
        ({0: STEPS},),
    ),
    Case(
        "module_output_appended_between_breaks_in_an_item_count_loop",
        seeded(SpreadReadouts),
        _spread(6, 1, 3),
        [
            _spread(5, 0, 9),  # every position marked: the `break` after the append
            _spread(6, 2, 9),  # the end reached with the first positions unmarked: the first `break`
            _spread(4, 0, 0),  # no step
            _spread(7, 3, 1),  # one step
            _spread(3, 2, 4),  # nothing to spread to
        ],
        ({0: POSITIONS}, {0: POSITIONS}, None),
        constructs=("for->while_loop",),
    ),
]
