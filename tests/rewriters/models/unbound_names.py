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


class Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        return x * self.k


class CoarsestScale(nn.Module):
    """A loop over an nn.ModuleList (kept as Python) that `break`s on a tensor test, in a helper
    called from a tensor branch: dynamo traces the helper, where `peaks` has no value before the
    first pass (set38 tree_crown_detector)."""

    def __init__(self):
        super().__init__()
        self.scales = nn.ModuleList([Scale(1.0), Scale(0.5), Scale(0.25)])

    def pick(self, x):
        for scale in self.scales:
            s = scale(x)
            peaks = s > 1.0
            if peaks.float().mean() <= 0.3:
                break
        return s * peaks

    def forward(self, rows):
        parts = []
        for i in range(rows.shape[0]):
            if rows[i].mean() < 0.5:
                continue
            parts.append(self.pick(rows[i]))
        return torch.cat(parts) if len(parts) > 0 else rows.new_zeros(0)


def _walk(n, dup=None):
    steps = torch.rand(n, 3, generator=torch.Generator().manual_seed(8)) * 0.6 + 0.2
    points = torch.cumsum(steps, 0)
    if dup is not None:
        points[dup] = points[dup - 1]
    return points, torch.zeros(3)


class RefinedUntilStill(nn.Module):
    """``attn`` first assigned in a tensor `while` that always runs once (``delta`` starts at inf)
    and read after it, its shape ``(pixels, k)`` with ``k`` read from the data before the loop
    (set68 slot_attention_scene_parser, reduced): its placeholder takes that size."""

    def __init__(self):
        super().__init__()
        self.slots = nn.Parameter(torch.randn(6, 4))
        self.proj = nn.Linear(4, 4)

    def forward(self, feats, count):
        k = min(max(int(count.item()), 1), 6)
        slots = self.slots[:k]
        it = 0
        delta = torch.tensor(float("inf"))
        while it < 5 and delta > 0.05:
            attn = torch.softmax(feats @ slots.T, dim=1)
            new = torch.tanh(self.proj((attn / attn.sum(0, keepdim=True)).T @ feats))
            delta = (new - slots).abs().max()
            slots = new
            it += 1
        return slots, attn.mean(0)


CASES = [
    Case(
        "a_name_set_in_one_branch_of_a_loop_body_and_again_after_the_loop",
        seeded(TurnBack),
        _walk(4),
        [_walk(6, dup=2), _walk(12), _walk(3, dup=1)],
        ({0: torch.export.Dim("points", min=2, max=32)}, None),
        constructs=("for->while_loop", "if->cond"),
    ),
    Case(
        "a_module_list_loop_with_a_tensor_break_in_a_helper_called_from_a_branch",
        seeded(CoarsestScale),
        (
            torch.stack(
                [torch.linspace(0.0, 4.0, 6), torch.linspace(0.0, 1.2, 6), torch.linspace(0.0, 9.0, 6)]
            ),
        ),
        [(torch.stack([torch.linspace(0.0, 9.0, 6), -torch.ones(6)]),), (-torch.ones(4, 6),)],
        ({0: torch.export.Dim("rows", min=2, max=32)},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "a_name_first_set_in_a_tensor_while_with_a_size_read_from_the_data_before_it",
        seeded(RefinedUntilStill),
        (torch.randn(10, 4, generator=torch.Generator().manual_seed(0)), torch.tensor(3)),
        [
            (torch.randn(7, 4, generator=torch.Generator().manual_seed(1)), torch.tensor(6)),
            (torch.zeros(5, 4), torch.tensor(1)),  # still after one step
            (torch.randn(12, 4, generator=torch.Generator().manual_seed(2)), torch.tensor(9)),
        ],
        ({0: torch.export.Dim("pixels", min=2, max=64)}, None),
        constructs=("while->while_loop",),
    ),
]
