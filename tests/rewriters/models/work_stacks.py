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


class ReachableObjects(nn.Module):
    """Marks the objects reachable from a root through a reference table (-1: no reference): a
    depth-first walk whose pushes come from a loop over the popped object's references."""

    def referents(self, refs, obj):
        row = refs[obj]
        return row[row >= 0]

    def forward(self, refs, root):
        marked = torch.zeros(refs.shape[0], dtype=torch.bool)
        r = root[0]
        marked[r] = True
        stack = [r]
        while stack:
            obj = stack.pop()
            for c in self.referents(refs, obj):
                if marked[c]:
                    continue
                marked[c] = True
                stack.append(c)
        return marked.long()


class MarkFromRoots(nn.Module):
    """Marks the objects reachable from each of several roots: a work stack per root inside the
    loop over the roots, its pushes under `c >= 0 and not marked[c]` (the graph reads `marked[-1]`
    where Python short-circuits it)."""

    def forward(self, refs, roots):
        marked = torch.zeros(refs.shape[0], dtype=torch.bool)
        for r in roots:
            marked[r] = True
            stack = [r]
            while stack:
                obj = stack.pop()
                c = refs[obj, 0]
                if c >= 0 and not marked[c]:
                    marked[c] = True
                    stack.append(c)
                c = refs[obj, 1]
                if c >= 0 and not marked[c]:
                    marked[c] = True
                    stack.append(c)
        return marked.long()


def _heap(n, seed, root=0, null_share=0.5, roots=None):
    g = torch.Generator().manual_seed(seed)
    refs = torch.randint(0, n, (n, 4), generator=g)
    refs[torch.rand(n, 4, generator=g) < null_share] = -1
    return refs, torch.tensor(roots if roots is not None else [root])


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
    Case(
        "a_work_stack_pushed_from_a_loop_over_each_popped_entrys_references",
        seeded(ReachableObjects),
        _heap(16, 1),
        [
            _heap(4, 2, root=3),  # min size
            _heap(30, 3, root=7),
            _heap(64, 4, null_share=0.2),  # max size, most objects reachable
            _heap(12, 5, null_share=1.0),  # no references: the root alone
        ],
        ({0: torch.export.Dim("n", min=4, max=64)}, None),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_work_stack_per_root_inside_a_loop_over_the_roots",
        seeded(MarkFromRoots),
        _heap(16, 1, roots=[0, 3, 5]),
        [
            _heap(4, 2, roots=[3, 1]),  # min sizes
            _heap(30, 3, roots=[7, 7, 2, 9]),  # a root twice
            _heap(64, 4, null_share=0.2, roots=[1, 2, 3, 4, 5, 6, 7, 8]),  # max sizes
            _heap(12, 5, null_share=1.0, roots=[4, 0]),  # no references: the roots alone
        ],
        ({0: torch.export.Dim("n", min=4, max=64)}, {0: torch.export.Dim("roots", min=2, max=8)}),
        constructs=("for->while_loop", "while->while_loop"),
    ),
]
