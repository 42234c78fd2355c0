"""`if`/`elif`/`else`, ternaries, early returns and boolean operators on tensor predicates."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class GatedResidual(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        h = self.fc(x)
        if h.mean() > 0:
            y = torch.relu(h) * 2.0
        else:
            y = torch.tanh(h) - 1.0
        return y + x


class ClipByMax(nn.Module):
    """Assigns in one branch only; the other path keeps the value from before the `if`."""

    def forward(self, x):
        peak = x.abs().max()
        if peak.item() > 4.0:
            x = x / peak * 4.0
        return x * 0.5


class AllPositive(nn.Module):
    def forward(self, x):
        if bool((x > 0).all()):
            return torch.log(x)
        return torch.exp(-x.abs())


class Router(nn.Module):
    """if / elif / else on any() and a reduction."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(6, 6)
        self.b = nn.Linear(6, 6)

    def forward(self, x):
        if (x > 3).any():
            out = self.a(x)
        elif x.sum() < -4:
            out = self.b(x)
        else:
            out = x * 3
        return out.sigmoid()


class EarlyExit(nn.Module):
    """`return` inside a branch: the code after the `if` is the other path."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(5, 5)

    def forward(self, x):
        if x.norm() < 1.0:
            return x
        x = self.fc(x)
        x = torch.relu(x)
        return x + 1


class TernaryScale(nn.Module):
    def forward(self, x):
        scale = 2.0 if x.mean() > 0 else 0.5
        y = x.relu() if x.max() > 1 else x.abs()
        return y * scale


class LogicGate(nn.Module):
    """and / or / not on tensor predicates."""

    def forward(self, x):
        if x.mean() > 0 and not (x.std() > 2) or x.max() > 10:
            x = x - x.mean()
        else:
            x = x * 0.1
        return x


class NestedDecision(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = self.fc(x)
        if h.sum() > 0:
            if h.max() > 1.5:
                h = h.clamp(max=1.5)
            else:
                h = h * 2
            out = h, h.sum()
        else:
            out = -h, h.mean()
        return out


class ReferFlag(nn.Module):
    """A truth value assigned from `or` of tensor tests (not an `if` test), then made a tensor."""

    def forward(self, x):
        grade = torch.tensor(2) if x.max() > 1.0 else torch.tensor(0)
        refer = (grade >= 2) or bool(x.min() < -1.0)
        return torch.tensor(bool(refer)).float(), x.relu()


def _ones(shape, value):
    return (torch.full(shape, value),)


CASES = [
    Case(
        "if_else_comparison",
        seeded(GatedResidual),
        (torch.randn(3, 8),),
        [_ones((3, 8), 2.0), _ones((3, 8), -2.0)],
        constructs=("if->cond",),
    ),
    Case(
        "item_one_branch_assign",
        seeded(ClipByMax),
        (torch.randn(4, 4),),
        [(torch.randn(4, 4) * 10,), (torch.randn(4, 4) * 0.1,)],
        constructs=("if->cond",),
    ),
    Case(
        "bool_all_early_return",
        seeded(AllPositive),
        (torch.rand(2, 5) + 0.1,),
        [(torch.rand(2, 5) + 0.1,), (torch.randn(2, 5),)],
        constructs=("if->cond",),
    ),
    Case(
        "elif_any_reduction",
        seeded(Router),
        (torch.randn(2, 6),),
        [_ones((2, 6), 4.0), _ones((2, 6), -1.0), _ones((2, 6), 0.1)],
        constructs=("if->cond",),
    ),
    Case(
        "return_in_branch",
        seeded(EarlyExit),
        (torch.randn(2, 5),),
        [_ones((2, 5), 0.01), _ones((2, 5), 3.0)],
        constructs=("if->cond",),
    ),
    Case(
        "ternary",
        seeded(TernaryScale),
        (torch.randn(3, 3),),
        [_ones((3, 3), 2.0), _ones((3, 3), 0.5), _ones((3, 3), -2.0)],
        constructs=("ifexp->cond",),
    ),
    Case(
        "and_or_not",
        seeded(LogicGate),
        (torch.randn(2, 4),),
        [
            _ones((2, 4), 1.0),
            (torch.tensor([[20.0, -30.0, 5.0, 0.0]] * 2),),
            _ones((2, 4), -1.0),
            (torch.tensor([[-1.0, 12.0, -1.0, -1.0]] * 2),),
        ],
        constructs=("if->cond",),
    ),
    Case(
        "nested_if_tuple",
        seeded(NestedDecision),
        (torch.randn(2, 4),),
        [_ones((2, 4), 3.0), _ones((2, 4), 0.2), _ones((2, 4), -3.0), _ones((2, 4), 0.01)],
        constructs=("if->cond",),
    ),
    Case(
        "or_of_truth_values_assigned",
        seeded(ReferFlag),
        _ones((2, 4), 0.5),
        [_ones((2, 4), 2.0), _ones((2, 4), -2.0), (torch.tensor([[0.5, -2.0, 0.0, 3.0]] * 2),)],
    ),
]
