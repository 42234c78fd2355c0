"""Python lists used as a work stack or queue by the `while` loop they drive (work_stacks.py):
intervals split at a marked midpoint, taken from a queue (`pop(0)`, `while len(queue) > 0`), and
a flood fill from the strongest sample over a work stack of positions (`pop()`, `while stack`),
its pushes under tensor tests."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SAMPLES = torch.export.Dim("samples", min=4, max=64)


class BisectBusy(nn.Module):
    """Marks the midpoints of intervals (split breadth-first) whose samples are busy: an interval
    is split while its largest magnitude exceeds a threshold."""

    def forward(self, x):
        n = x.shape[0]
        marks = torch.zeros(n)
        queue = [(0, n)]
        while len(queue) > 0:
            lo, hi = queue.pop(0)
            if hi - lo < 2:
                continue
            if x[lo:hi].abs().max() < 0.5:
                continue
            mid = (lo + hi) // 2
            marks[mid] = marks[mid] + 1.0
            queue.append((lo, mid))
            queue.append((mid + 1, hi))
        return marks * x


class FloodFill(nn.Module):
    """The samples connected to the strongest one through samples above a threshold."""

    def forward(self, x):
        n = x.shape[0]
        seen = torch.zeros(n)
        stack = [x.argmax()]
        while stack:
            p = stack.pop()
            if seen[p] > 0 or x[p] < 0.3:
                continue
            seen[p] = 1.0
            if p > 0:
                stack.append(p - 1)
            if p < n - 1:
                stack.append(p + 1)
        return seen, (seen * x).sum()


def _x(*values):
    return (torch.tensor(values),)


CASES = [
    Case(
        "list_as_a_queue_of_intervals_split_under_a_tensor_test",
        seeded(BisectBusy),
        _x(0.1, 0.9, 0.2, 0.1, 0.7, 0.1, 0.1, 0.6, 0.2, 0.1),
        [
            _x(0.1, 0.2, 0.1, 0.2),
            _x(0.9, 0.9, 0.9, 0.9, 0.9),
            _x(*[0.1] * 11, 0.8),
        ],
        ({0: SAMPLES},),
        constructs=("while->while_loop",),
    ),
    Case(
        "list_as_a_work_stack_of_a_flood_fill",
        seeded(FloodFill),
        _x(0.1, 0.5, 0.9, 0.4, 0.1, 0.6, 0.7, 0.2),
        [
            _x(0.9, 0.8, 0.7, 0.6),
            _x(0.1, 0.2, 0.1, 0.9),
            _x(0.2, 0.2, 0.2, 0.2, 0.25),
            _x(0.5, 0.1, 0.5, 0.5, 0.6, 0.5, 0.1, 0.9, 0.4),
        ],
        ({0: SAMPLES},),
        constructs=("while->while_loop",),
    ),
]
