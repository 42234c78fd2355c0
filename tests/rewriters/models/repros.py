"""Constructs an independent acceptance set found failing (reduced to the smallest model)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class ConstantPerBranch(nn.Module):
    """torch.tensor(k) created inside the branches of a tensor `if`."""

    def forward(self, x):
        if x.mean() > 0:
            level = torch.tensor(1)
            scale = torch.tensor(2.5)
        else:
            level = torch.tensor(0)
            scale = torch.tensor(-1.0, dtype=torch.float32)
        return x * scale, level


class AdaptiveDepth(nn.Module):
    """`break` on a tensor inside a loop over an nn.ModuleList, and a config-driven `break` and
    a tensor `continue` in another one."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.extra = nn.ModuleList([nn.Linear(4, 4) for _ in range(4)])
        self.depth = 2

    def forward(self, x):
        for block in self.blocks:
            x = x + block(x)
            if x.mean() > 0:
                break
        for i, layer in enumerate(self.extra):
            if i >= self.depth:
                break
            y = layer(x)
            if y.sum() < 0:
                continue
            x = x + y
        return x


class BandMaskWhenLong(nn.Module):
    """A branch on a dynamic size whose taken side builds a mask from torch.arange(n) (same shapes on
    both sides, symbolic strides written differently: a select instead of a cond)."""

    def forward(self, x):
        scores = x @ x.transpose(1, 2)
        n = x.shape[1]
        if n > 8:
            idx = torch.arange(n)
            band = (idx[None, :] - idx[:, None]).abs() <= 2
            scores = scores.masked_fill(~band, 0.0)
        return scores


class FloatThreshold(nn.Module):
    """`if`/`elif` on a Python float taken with .item() before the `if`, used again in arithmetic."""

    def forward(self, x):
        top = x.max().item()
        if top > 0.8:
            out = x * 10.0
        elif top > 0.5:
            out = x + top
        else:
            out = x - 1.0
        return out * float(top)


class BreakInBranchLoop(nn.Module):
    """A ModuleList loop with a tensor `break`, inside a tensor `if`."""

    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        if x.sum() > 0:
            for block in self.blocks:
                x = x + block(x)
                if x.mean() > 1:
                    break
        else:
            x = x - 1
        return x


class RowRecurrence(nn.Module):
    """A DP over a dynamic number of rows; each row is a list built in the body (``cur = [..]``,
    ``cur.append``) over a static width, stacked; a tensor ``break`` ends it early."""

    def forward(self, cost):
        prev = torch.zeros(cost.shape[1] + 1)
        for i in range(cost.shape[0]):
            cur = [prev[0] + 1.0]
            for j in range(cost.shape[1]):
                cur.append(cost[i, j] + torch.minimum(prev[j], torch.minimum(prev[j + 1], cur[j])))
            prev = torch.stack(cur)
            if prev.min() > 5.0:
                break
        return prev


class LabelLiteral(nn.Module):
    """Branches that return literal tensors (``torch.tensor([-1])``, a nested literal)."""

    def forward(self, x):
        if x.mean() > 0:
            return torch.tensor([-1]), torch.tensor([[0.5, 1.0], [1.5, 2.0]]) * x.mean()
        return x.argmax().view(1), torch.tensor([[1.0, 0.0], [0.0, 1.0]]) * x.std()


class DecisionCodes(nn.Module):
    """An if/elif/else giving a Python int code per branch (`decision = 2` / `1` / `0`)."""

    def forward(self, x):
        s = x.sum()
        if s > 1.0:
            decision = 2
        elif s > 0.0:
            decision = 1
        else:
            decision = 0
        return torch.full((), decision, dtype=torch.long), s


class StepCounterAfterEarlyReturn(nn.Module):
    """An early return, then a hill climb counting its steps in a Python int inside the loop (the
    count differs between the paths of the break's cond)."""

    def forward(self, x, v0):
        if x[0] < 0.05:
            return torch.zeros(()), torch.tensor(0)
        v, step, it = v0, torch.tensor(1.0), 0
        while it < 8:
            if (x * (v + step)).sum() > (x * v).sum():
                v = v + step
            else:
                step = step * 0.5
            if step < 0.2:
                break
            it += 1
        return v, torch.tensor(it)


class ScalarOrPerRowFactor(nn.Module):
    """`factor = 1.0`, a per-row tensor under one test, `0.85` under the `elif`: a Python number
    on some paths and an (N,) tensor on another, used by broadcasting."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, h, peak):
        factor = 1.0
        if peak.mean() < 0.3:
            factor = 0.6 + 0.1 * torch.sigmoid(self.fc(h)).squeeze(-1)
        elif peak.mean() < 0.5:
            factor = 0.85
        return peak * factor


class SwipeDirection(nn.Module):
    """`dx, dy = disp[0], disp[1]` (two views of one tensor) read by ternaries nested in an `if`
    after an early return: the nested conds get aliasing inputs unless they are copies."""

    def __init__(self):
        super().__init__()
        self.register_buffer("dirs", torch.eye(4))

    def forward(self, acc):
        if acc.pow(2).mean() < 0.05:
            return self.dirs[0] * 0.0
        disp = acc.sum(0)
        dx, dy = disp[0], disp[1]
        if dx.abs() > dy.abs():
            prior = self.dirs[0] if dx < 0 else self.dirs[1]
        else:
            prior = self.dirs[2] if dy > 0 else self.dirs[3]
        return torch.softmax(prior * 2.0, -1)


class BallToLine(nn.Module):
    """`x, y, vx, vy = ball.unbind(0)`: four views of one tensor passed to a cond and a loop
    (torch.onnx's decompositions refused the cond as "aliasing the input")."""

    def forward(self, ball):
        x, y, vx, vy = ball.unbind(0)
        if vx <= 0:
            return y
        while x < 1.0:
            x = x + vx
            y = y + vy
        return y


CASES = [
    Case(
        "torch_tensor_constant_in_branch",
        seeded(ConstantPerBranch),
        (torch.randn(2, 4),),
        [(torch.full((2, 4), 1.0),), (torch.full((2, 4), -1.0),)],
        constructs=("if->cond",),
    ),
    Case(
        "modulelist_break_tensor",
        seeded(AdaptiveDepth),
        (torch.randn(2, 4),),
        [(torch.full((2, 4), 5.0),), (torch.full((2, 4), -5.0),), (torch.randn(2, 4) * 0.1,)],
        constructs=("if->cond",),
    ),
    Case(
        "size_branch_arange_mask",
        seeded(BandMaskWhenLong),
        (torch.randn(1, 5, 3),),
        [(torch.randn(1, 4, 3),), (torch.randn(1, 12, 3),), (torch.randn(1, 2, 3),), (torch.randn(1, 9, 3),)],
        ({1: torch.export.Dim("seq", min=2, max=32)},),
        constructs=("if->where",),
    ),
    Case(
        "item_float_if_elif",
        seeded(FloatThreshold),
        (torch.randn(2, 6),),
        [(torch.full((2, 6), 1.0),), (torch.full((2, 6), 0.6),), (torch.full((2, 6), 0.0),)],
        constructs=("if->cond",),
    ),
    Case(
        "modulelist_break_in_tensor_if",
        seeded(BreakInBranchLoop),
        (torch.randn(2, 4),),
        [(torch.full((2, 4), 3.0),), (torch.full((2, 4), 0.01),), (-torch.ones(2, 4),)],
        constructs=("if->cond",),
    ),
    Case(
        "list_built_in_the_loop_body",
        seeded(RowRecurrence),
        (torch.rand(5, 4),),
        [(torch.rand(1, 4),), (torch.rand(9, 4) * 3,), (torch.rand(30, 4) * 20,)],
        ({0: torch.export.Dim("rows", min=1, max=64)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "literal_tensors_in_branches",
        seeded(LabelLiteral),
        (torch.randn(6),),
        [(torch.rand(6) + 0.1,), (-torch.rand(6) - 0.1,)],
        constructs=("if->cond",),
    ),
    Case(
        "int_codes_per_branch",
        seeded(DecisionCodes),
        (torch.rand(4),),
        [(torch.rand(4) * 0.1,), (-torch.rand(4),)],
        constructs=("if->cond",),
    ),
    Case(
        "python_step_counter_after_early_return",
        seeded(StepCounterAfterEarlyReturn),
        (torch.rand(4) + 0.1, torch.tensor(0.0)),
        [
            (torch.tensor([0.01, 1.0, 1.0, 1.0]), torch.tensor(0.0)),
            (torch.rand(4) + 0.1, torch.tensor(3.0)),
            (-torch.rand(4) - 0.1, torch.tensor(1.0)),
        ],
        constructs=("if->cond",),
    ),
    Case(
        "number_or_per_row_factor",
        seeded(ScalarOrPerRowFactor),
        (torch.randn(3, 4), torch.full((3,), 0.1)),
        [(torch.randn(5, 4), torch.full((5,), 0.4)), (torch.randn(2, 4), torch.full((2,), 0.9))],
        ({0: torch.export.Dim("rows", min=2, max=16)}, {0: torch.export.Dim("rows", min=2, max=16)}),
        constructs=("if->where",),
    ),
    Case(
        "nested_conds_reading_views_of_one_tensor",
        seeded(SwipeDirection),
        (torch.tensor([[-1.0, 0.1], [-1.0, 0.2]]),),
        [
            (torch.tensor([[1.0, 0.1], [1.0, 0.2]]),),
            (torch.tensor([[0.1, 1.0], [0.2, 1.0]]),),
            (torch.tensor([[0.1, -1.0], [0.2, -1.0]]),),
            (torch.full((2, 2), 0.01),),
        ],
        constructs=("if->cond",),
    ),
    Case(
        "cond_and_loop_reading_the_parts_of_an_unbind",
        seeded(BallToLine),
        (torch.tensor([0.1, 0.3, 0.2, 0.05]),),
        [(torch.tensor([0.5, 0.2, -0.1, 0.0]),), (torch.tensor([1.5, 0.2, 0.1, 0.0]),)],
        constructs=("if->cond", "while->while_loop"),
    ),
]
