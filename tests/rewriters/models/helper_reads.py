"""Lists a range loop appends to on every path (a `continue` after each) and reads back through a
helper they are passed to (row_lists.py): ``ready(done, cost, j)`` reads ``done[j]`` and
``cost[j]`` of the lists the graph loop carries as rows, and returns ``done[j] and bool(...)``, an
``and`` whose last operand is a truth value (passes/predicates.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


def ready(done, cost, j):
    return done[j] and bool(cost[j] < 5.0)


class TaskScheduler(nn.Module):
    """Task i waits on task ``after[i]`` (an earlier one, or itself: no wait); a task is done when
    what it waits on is done and cheap, and then costs its own plus that one's cost."""

    def forward(self, after, own):
        cost, done = [], []
        for i in range(after.shape[0]):
            j = int(after[i])
            if j == i:
                cost.append(own[i])
                done.append(True)
                continue
            if not ready(done, cost, j):
                cost.append(torch.zeros(()))
                done.append(False)
                continue
            cost.append(own[i] + cost[j])
            done.append(True)
        return torch.stack(cost), torch.tensor(done).to(torch.int64)


def _tasks(after, own):
    return torch.tensor(after), torch.tensor(own)


N = torch.export.Dim("n", min=2, max=32)

CASES = [
    Case(
        "lists_filled_on_every_path_read_through_a_helper_they_are_passed_to",
        seeded(TaskScheduler),
        _tasks([0, 0, 1, 3, 2, 4], [1.0, 2.0, 3.0, 9.0, 0.5, 1.0]),
        [
            _tasks([0, 1], [1.0, 2.0]),  # no waits
            _tasks([0, 0, 0, 2, 3], [4.0, 2.0, 0.5, 1.0, 6.0]),  # a chain that grows too costly
            _tasks([0, 0, 1, 2, 3, 4, 5, 6], [0.5] * 8),
        ],
        ({0: N}, {0: N}),
        constructs=("for->while_loop",),
    ),
]
