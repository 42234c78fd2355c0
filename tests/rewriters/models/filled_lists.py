"""Lists earlier graph loops filled, used the way a motion planner does: segments kept by a
`continue` filter (a data-dependent count), an early `return` when none is left, then junction
speeds appended per segment, updated in place by a backward and a forward pass (``v[i] = ...`` of
a list a loop carries), and two lists a tuple assignment creates inside the converted branch.
Also a list of flags ``[False] * m`` a greedy matcher sets inside a tensor `if` of its loop."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class SpeedPlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.cruise = nn.Linear(1, 1)

    def forward(self, pts):
        lengths = []
        for i in range(pts.shape[0] - 1):
            d = (pts[i + 1] - pts[i]).norm()
            if d < 1e-3:
                continue  # a repeated waypoint
            lengths.append(d)
        n = len(lengths)
        if n == 0:
            return torch.zeros(()), torch.zeros(0)
        v = [torch.zeros(())]
        for i in range(1, n):
            v.append(torch.sigmoid(self.cruise(lengths[i].reshape(1))).squeeze() * 2.0)
        v.append(torch.zeros(()))
        for i in range(n - 1, -1, -1):  # brake into the next junction
            v[i] = torch.minimum(v[i], torch.sqrt(v[i + 1] ** 2 + 2.0 * lengths[i]))
        for i in range(n):  # accelerate out of the previous one
            v[i + 1] = torch.minimum(v[i + 1], torch.sqrt(v[i] ** 2 + 2.0 * lengths[i]))
        times, peaks = [], []
        for i in range(n):
            peak = torch.maximum(v[i], v[i + 1])
            times.append(lengths[i] / (0.5 * (v[i] + v[i + 1]) + 0.1))
            peaks.append(peak)
        times = torch.stack(times)
        return times.sum(), torch.stack(peaks)


def _path(points: list) -> tuple:
    return (torch.tensor(points, dtype=torch.float32),)


class GreedyMatcher(nn.Module):
    """Each query takes the closest key not yet taken, when it is close enough."""

    def forward(self, queries, keys):
        taken = [False] * keys.shape[0]
        picked = torch.full((queries.shape[0],), -1)
        for i in range(queries.shape[0]):
            best, best_d = -1, torch.tensor(1.0)
            for j in range(keys.shape[0]):
                if taken[j]:
                    continue
                d = (queries[i] - keys[j]).abs().sum()
                if d < best_d:
                    best, best_d = j, d
            if best >= 0:
                picked[i] = best
                if best_d < 0.5:
                    taken[best] = True
        return picked


CASES = [
    Case(
        "list_filled_by_a_loop_then_updated_in_place_by_others",
        seeded(SpeedPlanner),
        _path([[0, 0], [1, 0], [1, 2], [3, 2], [3, 3]]),
        [
            _path([[0, 0], [0, 0], [0, 0]]),  # every waypoint repeated: the early return
            _path([[0, 0], [2, 0], [2, 0]]),  # one segment, one repeated waypoint skipped
            _path([[0, 0], [1, 1], [1, 1], [4, 1], [4, 5], [0, 5]]),
        ],
        ({0: torch.export.Dim("points", min=3, max=32)},),
        constructs=("if->cond", "for->while_loop"),
    ),
    Case(
        "list_of_flags_set_in_a_branch_of_a_loop",
        GreedyMatcher,
        (
            torch.tensor([[0.0, 0.0], [0.1, 0.0], [3.0, 3.0]]),
            torch.tensor([[0.0, 0.1], [0.3, 0.0], [3.0, 3.2]]),
        ),
        [
            (torch.tensor([[5.0, 5.0], [6.0, 6.0]]), torch.tensor([[0.0, 0.0], [1.0, 1.0]])),  # nothing close
            (torch.tensor([[0.0, 0.0], [0.0, 0.0]]), torch.tensor([[0.2, 0.0], [0.0, 0.3]])),  # both taken
            (
                torch.tensor([[0.0, 0.0], [0.0, 0.6]]),
                torch.tensor([[0.0, 0.45], [9.0, 9.0]]),
            ),  # close, not taken
        ],
        ({0: torch.export.Dim("q", min=2, max=16)}, {0: torch.export.Dim("k", min=2, max=16)}),
        constructs=("for->while_loop", "if->cond"),
    ),
]
