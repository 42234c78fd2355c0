"""Recursion that ends on a tensor test or a depth limit, written as a tail call (`return
self.solve(lo, hi, depth=depth + 1)`): one while_loop, however deep the limit (tail_calls.py)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class BisectedRoots(nn.Module):
    """The root of a monotone cubic per entry, by bisection, as recursion 40 levels deep at most."""

    def solve(self, lo, hi, coef, depth=0):
        mid = 0.5 * (lo + hi)
        value = coef[0] * mid**3 + coef[1] * mid - coef[2]
        if depth == 40 or (hi - lo).max() < 1e-4:
            return mid
        below = value < 0
        return self.solve(torch.where(below, mid, lo), torch.where(below, hi, mid), coef, depth=depth + 1)

    def forward(self, targets):
        coef = torch.stack([torch.ones_like(targets), 2.0 * torch.ones_like(targets), targets])
        return self.solve(torch.full_like(targets, -10.0), torch.full_like(targets, 10.0), coef)


def _halvings(x, steps):
    """Halve until every entry is below 1, counting the halvings (a plain function)."""
    if (x.abs() < 1.0).all():
        return x, steps
    return _halvings(torch.where(x.abs() < 1.0, x, 0.5 * x), steps + 1)


class Normalised(nn.Module):
    def forward(self, x):
        scaled, steps = _halvings(x, 0)
        return scaled, scaled.sum() + steps


CASES = [
    Case(
        "a_tail_recursive_bisection_forty_levels_deep",
        seeded(BisectedRoots),
        (torch.tensor([3.0, -5.0, 0.5]),),
        [
            (torch.tensor([0.0, 0.0]),),
            (torch.tensor([1000.0, -1000.0, 7.0, 2.5, -0.1]),),  # out of the bracket: the depth limit
        ],
        ({0: torch.export.Dim("n", min=2, max=8)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_tail_recursive_plain_function_counting_its_calls",
        seeded(Normalised),
        (torch.tensor([3.0, 0.5, -9.0]),),
        [(torch.tensor([0.1, 0.2]),), (torch.tensor([1000.0, 1.0, -0.5, 2.0]),)],
        ({0: torch.export.Dim("n", min=2, max=8)},),
        constructs=("while->while_loop",),
    ),
]
