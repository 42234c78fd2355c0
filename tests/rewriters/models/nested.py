"""Loops over dynamic sizes nested inside other converted loops and tensor `if`s: the inner loop
must stay a graph loop on the symbolic size, not be fixed to the example's size."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

ROWS = torch.export.Dim("rows", min=1, max=12)
COLS = torch.export.Dim("cols", min=1, max=12)
SEQ = torch.export.Dim("seq", min=1, max=32)


class GridSum(nn.Module):
    """for i in range(x.shape[1]): for j in range(x.shape[2]) with both dims dynamic."""

    def forward(self, x):
        acc = torch.zeros(x.shape[0])
        for i in range(x.shape[1]):
            row = torch.zeros(x.shape[0])
            for j in range(x.shape[2]):
                row = row + x[:, i, j] * (j + 1)
            acc = acc * 0.5 + row
        return acc


class LoopInBranch(nn.Module):
    """A dynamic-length loop inside a tensor `if`."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 4)
        if x.mean() > 0:
            for t in range(x.shape[1]):
                h = torch.tanh(self.fc(x[:, t]) + h)
        else:
            h = h - x.sum(dim=1)
        return h


class SelectInLoopInBranch(nn.Module):
    """A tensor `if` inside a dynamic loop inside a tensor `if` (the inner `if` a cond two graph ops deep)."""

    def forward(self, x):
        total = torch.zeros(x.shape[0])
        if x.sum() > 0:
            for t in range(x.shape[1]):
                step = x[:, t]
                if step.sum() > 0:
                    total = total + step
                else:
                    total = total - 1
        else:
            total = total + 100
        return total


class Triangular(nn.Module):
    """The inner loop's bound is the outer loop's counter."""

    def forward(self, x):
        acc = torch.zeros(x.shape[0])
        for i in range(x.shape[1]):
            for j in range(i):
                acc = acc + x[:, i] * x[:, j]
        return acc


class WhileInFor(nn.Module):
    """A `while` on a tensor condition inside a loop over a dynamic size."""

    def forward(self, x):
        out = torch.zeros_like(x)
        for t in range(x.shape[1]):
            v = x[:, t].abs() + 0.1
            while v.max() < 1:
                v = v * 2
            out[:, t] = v
        return out


class RowsInSteps(nn.Module):
    """An inner loop that appends (then stacks) inside an outer loop that does not: both over
    dynamic sizes."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 3)
        for t in range(x.shape[1]):
            rows = []
            for s in range(x.shape[2]):
                h = torch.tanh(self.fc(x[:, t, s]) + h)
                rows.append(h)
            h = h + torch.stack(rows, 1).mean(1)
        return h


class StackOfStacks(nn.Module):
    """Appending loops nested in an appending loop (a scan of scans)."""

    def forward(self, x):
        h = torch.zeros(x.shape[0], x.shape[3])
        outs = []
        for t in range(x.shape[1]):
            rows = []
            for s in range(x.shape[2]):
                h = 0.5 * h + x[:, t, s]
                rows.append(h * 2)
            outs.append(torch.cat(rows, 1))
        return torch.stack(outs, 1)


CASES = [
    Case(
        "nested_dynamic_for_for",
        seeded(GridSum),
        (torch.randn(2, 3, 4),),
        [(torch.randn(2, 1, 1),), (torch.randn(2, 7, 2),), (torch.randn(2, 2, 9),)],
        ({1: ROWS, 2: COLS},),
        constructs=("for->while_loop",),
    ),
    Case(
        "dynamic_loop_in_tensor_if",
        seeded(LoopInBranch),
        (torch.randn(2, 5, 4),),
        [(torch.rand(2, 1, 4),), (torch.rand(2, 9, 4),), (-torch.rand(2, 3, 4),), (-torch.rand(2, 20, 4),)],
        ({1: SEQ},),
        constructs=("if->cond",),
    ),
    Case(
        "select_in_loop_in_tensor_if",
        seeded(SelectInLoopInBranch),
        (torch.randn(2, 6),),
        [(torch.rand(2, 1),), (torch.randn(2, 11) + 0.3,), (-torch.rand(2, 4),)],
        ({1: SEQ},),
        constructs=("if->cond",),
    ),
    Case(
        "nested_triangular_loop",
        seeded(Triangular),
        (torch.randn(2, 5),),
        [(torch.randn(2, 1),), (torch.randn(2, 2),), (torch.randn(2, 13),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "while_in_dynamic_for",
        seeded(WhileInFor),
        (torch.randn(2, 5),),
        [(torch.randn(2, 1),), (torch.full((2, 3), 2.0),), (torch.rand(2, 12) * 0.01,)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "append_loop_in_dynamic_for",
        seeded(RowsInSteps),
        (torch.randn(2, 4, 5, 3),),
        [(torch.randn(2, 1, 1, 3),), (torch.randn(2, 9, 7, 3),)],
        ({1: ROWS, 2: COLS},),
        constructs=("for->while_loop",),
    ),
    Case(
        "append_loop_in_append_loop",
        seeded(StackOfStacks),
        (torch.randn(2, 3, 4, 2),),
        [(torch.randn(2, 1, 2, 2),), (torch.randn(2, 8, 1, 2),)],
        ({1: ROWS, 2: COLS},),
        constructs=("for->scan", "for->while_loop"),
    ),
]
