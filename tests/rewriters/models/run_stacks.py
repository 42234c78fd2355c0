"""Lists a range loop of run-time length uses as stacks (row_lists.py, passes/list_pops.py):
appended to, read and written at [-1], popped (also inside an expression) and tested for being
non-empty, then stacked after the loop: runs of a quantised signal in which a one-sample spike
is folded into the run before it, and that run reopened when the signal returns to its level."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class SpikeFolder(nn.Module):
    """Each run's level (int64 rows) and the sum of its samples (float rows)."""

    def forward(self, x):
        q = torch.bucketize(x, torch.tensor([-0.5, 0.5]))
        levels, sums = [], []
        cur, acc, n = q[0], x[0], torch.ones((), dtype=torch.long)
        for t in range(1, x.shape[0]):
            if q[t] == cur:
                acc, n = acc + x[t], n + 1
                continue
            if n == 1 and sums:
                sums[-1] = sums[-1] + acc
                if levels[-1] == q[t]:
                    cur = levels.pop()
                    acc = sums.pop() + x[t]
                    n = n + 1
                    continue
            else:
                levels.append(cur)
                sums.append(acc)
            cur, acc, n = q[t], x[t], torch.ones((), dtype=torch.long)
        levels.append(cur)
        sums.append(acc)
        return torch.stack(levels), torch.stack(sums)


def _x(*values):
    return (torch.tensor(values),)


CASES = [
    Case(
        "lists_popped_and_written_at_the_end_in_a_loop_of_run_time_length",
        seeded(SpikeFolder),
        _x(-1.0, -0.9, 0.1, -1.0, -0.8, 1.0, 0.9, 0.0, 1.1, 1.2, 1.0, -1.0),
        [
            _x(0.0, 1.0, 1.1),
            _x(1.0, -1.0, 0.2, 0.1, 1.0, 0.8),
            _x(0.3, 0.2, 0.1, 0.0),
            _x(-1.0, -1.0, 1.0, 0.0, 0.1, 0.2, 1.0),
        ],
        ({0: torch.export.Dim("samples", min=3, max=64)},),
        constructs=("for->while_loop",),
    ),
]
