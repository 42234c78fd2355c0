"""A short range loop with Python bounds whose `break` is a tensor test, around a graph loop that
appends: the outer loop is unrolled under the break flag (unrolled_loop.py), and the list it
carries, a different length after each step, is selected between steps as its rows stacked. The
window ``x[i : i + k]`` at the while loop's position has the unrolled counter's static length (a
span, window_spans.py), so a product with ``k`` weights exports, and a helper the while loop calls
loops over ``range(1, k)`` with a tensor `return`: inside the while loop's body that short loop is
unrolled too (a graph loop's counter there would make sizes the body cannot return)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class RunScanner(nn.Module):
    """For run lengths 1 to 3, scans the read for runs of high values (a run found skips past it),
    and stops scanning after the third run found; a run scores by weights of its length. A run of
    equal values repeats a shorter run, so it is not counted as a run of its own length."""

    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.rand(3) + 0.5)

    def _plain(self, run):
        k = run.shape[0]
        for d in range(1, k):
            if k % d == 0 and bool((run == run[:d].repeat(k // d)).all()):
                return False
        return True

    def forward(self, x):
        n = x.shape[0]
        found = []
        done = False
        for k in range(1, 4):
            i = 0
            while i + k <= n:
                window = x[i : i + k]
                if bool((window > 0.5).all()) and self._plain(window):
                    found.append((window * self.weights[:k]).sum())
                    if len(found) >= 3:
                        done = True
                        break
                    i += k
                else:
                    i += 1
            if done:
                break
        if not found:
            return torch.zeros(0)
        return torch.stack(found)


def _read(values):
    return (torch.tensor(values),)


N = torch.export.Dim("n", min=2, max=64)

CASES = [
    Case(
        "a_list_appended_in_a_graph_loop_inside_an_unrolled_loop_with_a_tensor_break",
        seeded(RunScanner),
        _read([0.9, 0.8, 0.1, 0.7, 0.6, 0.9, 0.2, 0.1]),
        [
            _read([0.1, 0.2]),  # nothing found
            _read([0.9, 0.1, 0.2]),  # one run of 1, none longer: every pass runs
            _read([0.9] * 10),  # three runs of 1: the first pass breaks
            _read([0.9, 0.1, 0.8, 0.1, 0.9, 0.95, 0.1]),
            _read([0.1, 0.7, 0.7, 0.1]),  # a run of 2 equal values repeats a run of 1
            _read([0.1, 0.7, 0.8]),  # a run of 2 after two runs of 1: the second pass breaks
        ],
        ({0: N},),
        constructs=("for->unrolled", "while->while_loop"),
    ),
]
