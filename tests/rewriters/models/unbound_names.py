"""Names a loop body assigns in one branch only, which the function assigns again after the loop:
inside the converted body they are closure cells with no value yet (passes/conditionals.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class TurnBack(nn.Module):
    """Walks checkpoints (skipping duplicates with `continue`) until the way back would take too long
    (`break`); `_, back = self.leg(...)` in the body and again after the loop."""

    def __init__(self):
        super().__init__()
        self.pace = nn.Linear(3, 1)

    def leg(self, a, b):
        d = (b - a).norm()
        return d, d * (1.0 + torch.sigmoid(self.pace(b - a)).squeeze(-1))

    def forward(self, points, home):
        pos = home
        kept = [home]
        for i in range(points.shape[0]):
            p = points[i]
            if (p - pos).norm() < 0.05:
                continue
            _, back = self.leg(p, home)
            if back > 6.0:
                break
            pos = p
            kept.append(p)
        _, back = self.leg(pos, home)
        return torch.stack(kept), back


def _walk(n, dup=None):
    steps = torch.rand(n, 3, generator=torch.Generator().manual_seed(8)) * 0.6 + 0.2
    points = torch.cumsum(steps, 0)
    if dup is not None:
        points[dup] = points[dup - 1]
    return points, torch.zeros(3)


CASES = [
    Case(
        "a_name_set_in_one_branch_of_a_loop_body_and_again_after_the_loop",
        seeded(TurnBack),
        _walk(4),
        [_walk(6, dup=2), _walk(12), _walk(3, dup=1)],
        ({0: torch.export.Dim("points", min=2, max=32)}, None),
        constructs=("for->while_loop", "if->cond"),
    ),
]
