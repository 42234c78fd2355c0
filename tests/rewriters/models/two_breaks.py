"""An append after two `break`s on tensor tests (the second inside the first's guard): each
iteration that reaches the append adds one row; one that breaks adds none."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=2, max=32)


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


def _rows(*rows):
    return (torch.tensor(rows),)


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
]
