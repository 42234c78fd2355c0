"""A list a loop filled on a tensor test, used after an early return where its length must equal
an input's size: the codes of a course found in order among punches, their times' legs weighted
per control (`legs * weights` broadcasts the found rows against the course's), and the last time
(`times[-1]`); and the last of the peaks a loop found, read in a branch on a tensor count."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class InOrderLegs(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Linear(1, 1)

    def forward(self, course, weights, punches):
        n = course.shape[0]
        found = 0
        times = []
        for p in range(punches.shape[0]):
            if punches[p, 0] == course[found]:
                times.append(punches[p, 1])
                found += 1
                if found == n:
                    break
        if found < n:
            return torch.zeros(n), torch.tensor(found)
        t = torch.stack(times)
        legs = torch.diff(t, prepend=torch.zeros(1))
        scaled = self.scale(legs.unsqueeze(1)).squeeze(1)
        return scaled * weights + t[-1], torch.tensor(found)


class LastPeak(nn.Module):
    def forward(self, x):
        peaks = []
        count = torch.zeros((), dtype=torch.int64)
        for i in range(1, x.shape[0] - 1):
            if x[i] > x[i - 1] and x[i] > x[i + 1]:
                peaks.append(x[i])
                count += 1
        if count > 0:
            last = torch.stack(peaks)[-1]
        else:
            last = x.max()
        return last * 2.0, count


def _card(course: list[int], codes: list[int]) -> tuple:
    punches = torch.tensor([[float(c), 10.0 * (k + 1) + c] for k, c in enumerate(codes)])
    course = torch.tensor(course, dtype=torch.float32)
    return course, torch.linspace(0.5, 1.5, course.shape[0]), punches


_SHAPES = (
    {0: torch.export.Dim("controls", min=2, max=8)},
    {0: torch.export.Dim("controls", min=2, max=8)},
    {0: torch.export.Dim("punches", min=2, max=16)},
)

CASES = [
    Case(
        "a_list_a_loop_filled_broadcast_against_an_input_after_an_early_return",
        seeded(InOrderLegs),
        _card([31, 32, 33], [31, 40, 32, 33, 1]),
        [
            _card([31, 32, 33], [31, 40, 32, 33, 1]),  # all found, a stray punch, the finish after
            _card([35, 36], [35, 36]),  # all found at the last punch
            _card([31, 32, 33, 34], [31, 33, 34, 2]),  # 32 missed: the early return
            _card([50, 51, 52, 53, 54, 55, 56, 57], [9, 50, 51, 52, 53, 54, 55, 56, 57, 3]),  # max
            _card([40, 41], [1, 2, 3]),  # none found
        ],
        _SHAPES,
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "the_last_of_a_loops_list_read_in_a_branch_on_a_tensor_count",
        seeded(LastPeak),
        (torch.tensor([0.0, 2.0, 1.0, 3.0, 0.5]),),
        [
            (torch.tensor([0.0, 2.0, 1.0, 3.0, 0.5]),),  # two peaks: the last one
            (torch.tensor([1.0, 2.0, 3.0, 4.0]),),  # none: the maximum
            (torch.tensor([5.0, 1.0]),),  # the smallest input, no interior points
        ],
        ({0: torch.export.Dim("n", min=2, max=16)},),
        constructs=("for->while_loop", "if->cond"),
    ),
]
