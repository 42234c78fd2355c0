"""Indexing with loop state (`while i < n: x[i]`), len() of a dynamic tensor, numel branches,
elif chains inside while bodies, and loops that only append."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=1, max=64)


class WhileIndex(nn.Module):
    def forward(self, x):
        i = 0
        acc = torch.zeros(x.shape[1])
        while i < x.shape[0]:
            acc = acc + x[i]
            i += 1
        return acc


class LenLoop(nn.Module):
    def forward(self, x):
        total = torch.zeros(x.shape[1])
        for i in range(len(x)):
            row = x[i]
            total = total + row * (i + 1)
        return total


class NumelBranch(nn.Module):
    def forward(self, x):
        if x.numel() > 20:
            return x.sum(0)
        return x.mean(0)


class ThresholdCount(nn.Module):
    """A while loop with a tensor count and an `elif` chain in its body."""

    def forward(self, x):
        steps = torch.zeros((), dtype=torch.long)
        while x.max() > 1.0:
            if x.mean() > 2.0:
                x = x / 4
            elif x.mean() > 1.0:
                x = x / 2
            else:
                x = x * 0.9
            steps += 1
        return x, steps


class SegmentSum(nn.Module):
    """Only appends inside a dynamic loop, then torch.cat along the default dim."""

    def forward(self, x):
        parts = []
        for t in range(x.shape[0]):
            parts.append(x[t : t + 1] * (t + 1))
        return torch.cat(parts)


class GoalDistance(nn.Module):
    """Stores at positions read from an input, outside any branch (`dist[goal[0], goal[1]] = 0`):
    Python's subscript would turn each 0-d index into a data-dependent int."""

    def forward(self, cost, goal):
        dist = torch.full_like(cost, 1e4)
        dist[goal[0], goal[1]] = 0.0
        dist[goal[0]] = torch.minimum(dist[goal[0]], cost[goal[0]])
        for _ in range(3):
            dist = torch.minimum(dist, torch.roll(dist, 1, 0) + cost)
        return dist


RATES = (0.045, 0.07, 0.11)
SCALES = [torch.tensor([1.0, 2.0]), torch.tensor([0.5, 4.0]), torch.tensor([3.0, -1.0])]


class TierPricing(nn.Module):
    """A tier a converted elif chain picks, then a Python tuple and a list of tensors indexed by it."""

    def forward(self, lines):
        if (lines[:, 1] > 0.9).any():
            tier = 2
        elif lines[:, 0].sum() > 1.0:
            tier = 1
        else:
            tier = 0
        return lines.mean(0) * SCALES[tier] + RATES[tier] + RATES[-1 - tier]


class TrailingWindow(nn.Module):
    """A forecast from the `window` values before step t, once there are that many
    (`if t >= self.window: f(x[t - self.window : t])`), for sequences shorter than the window too."""

    def __init__(self):
        super().__init__()
        self.window = 3
        self.head = nn.Linear(3, 1)

    def forward(self, x):
        level = torch.zeros(())
        outs = []
        for t in range(x.shape[0]):
            level = 0.5 * level + x[t]
            if t >= self.window:
                level = level + self.head(x[t - self.window : t]).squeeze(0)
            outs.append(level)
        return torch.stack(outs)


CASES = [
    Case(
        "stores_at_tensor_positions",
        seeded(GoalDistance),
        (torch.rand(6, 5), torch.tensor([2, 3])),
        [(torch.rand(6, 5), torch.tensor([0, 0])), (torch.rand(6, 5), torch.tensor([5, -1]))],
    ),
    Case(
        "while_python_counter_index",
        seeded(WhileIndex),
        (torch.randn(4, 3),),
        [(torch.randn(1, 3),), (torch.randn(9, 3),)],
        ({0: SEQ},),
        constructs=("while->while_loop",),
    ),
    Case(
        "range_len_dynamic",
        seeded(LenLoop),
        (torch.randn(4, 3),),
        [(torch.randn(1, 3),), (torch.randn(9, 3),)],
        ({0: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "numel_branch_dynamic",
        seeded(NumelBranch),
        (torch.randn(4, 3),),
        [(torch.randn(1, 3),), (torch.randn(9, 3),)],
        ({0: SEQ},),
        constructs=("if->cond",),
    ),
    Case(
        "elif_inside_while",
        seeded(ThresholdCount),
        (torch.randn(5),),
        [(torch.full((5,), 10.0),), (torch.full((5,), 1.5),), (torch.full((5,), 0.5),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "append_only_loop_cat",
        seeded(SegmentSum),
        (torch.randn(4, 3),),
        [(torch.randn(1, 3),), (torch.randn(9, 3),)],
        ({0: SEQ},),
        constructs=("for->scan",),
    ),
    Case(
        "constants_indexed_by_a_branch_chosen_int",
        seeded(TierPricing),
        (torch.tensor([[0.2, 0.1], [0.3, 0.5]]),),
        [
            (torch.tensor([[0.2, 0.95], [0.3, 0.5], [0.1, 0.1]]),),
            (torch.tensor([[0.8, 0.1], [0.7, 0.5]]),),
            (torch.tensor([[0.1, 0.1], [0.2, 0.2]]),),
        ],
        ({0: torch.export.Dim("lines", min=2, max=32)},),
        constructs=("if->cond",),
    ),
    Case(
        "a_trailing_window_before_the_loop_counter",
        seeded(TrailingWindow),
        (torch.linspace(-1.0, 1.0, 6),),
        [(torch.tensor([0.5, -0.5]),), (torch.linspace(1.0, -2.0, 9),), (torch.tensor([0.1, 0.2, 0.3]),)],
        ({0: torch.export.Dim("steps", min=2, max=32)},),
        constructs=("for->scan", "if->cond"),
    ),
]
