"""Least-cost diet planning (Stigler diet problem) solved with a tableau simplex.

Foods f have a unit cost and nutrient contents; each nutrient has a minimum daily requirement.
    minimise cost . x   s.t.  nutrients^T x >= requirements,  x >= 0
The dual (maximise requirements . y  s.t. nutrients y <= cost, y >= 0) has the slack basis as a
feasible start, so the dual is solved with Bland's rule; the food amounts are read off the
reduced costs of the slack columns.  If some nutrient cannot be supplied by any food the dual is
unbounded (primal infeasible) and the planner reports it.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def pivot(tableau, row, col):
    tableau = tableau.clone()
    tableau[row] = tableau[row] / tableau[row, col]
    for r in range(tableau.shape[0]):
        if r != row:
            tableau[r] = tableau[r] - tableau[r, col] * tableau[row]
    return tableau


def entering_column(objective, eps):
    """Bland's rule: lowest-index column with a negative reduced cost."""
    return int(torch.nonzero(objective[:-1] < -eps)[0, 0])


def leaving_row(tableau, col, eps):
    best_row = -1
    best_ratio = torch.zeros(())
    for r in range(tableau.shape[0] - 1):
        if tableau[r, col] <= eps:
            continue
        ratio = tableau[r, -1] / tableau[r, col]
        if best_row < 0 or ratio < best_ratio:
            best_row = r
            best_ratio = ratio
    return best_row


class DietSimplex(nn.Module):
    def __init__(self, eps=1e-3, max_pivots=10):
        super().__init__()
        self.eps = eps
        self.max_pivots = max_pivots

    def forward(self, nutrients, requirements, cost):
        n_foods, n_nutr = nutrients.shape
        top = torch.cat([nutrients, torch.eye(n_foods), cost.unsqueeze(1)], dim=1)
        obj = torch.cat([-requirements, torch.zeros(n_foods + 1)]).unsqueeze(0)
        tableau = torch.cat([top, obj], dim=0)
        pivots = 0
        while (tableau[-1, :-1] < -self.eps).any():
            if pivots >= self.max_pivots:
                break  # pivot budget of the embedded planner exhausted: plan not proven optimal
            col = entering_column(tableau[-1], self.eps)
            row = leaving_row(tableau, col, self.eps)
            if row < 0:
                # dual unbounded: requirements cannot be met by these foods
                return torch.zeros(n_foods), torch.tensor(float("inf")).clamp(max=1e9), torch.tensor(pivots)
            tableau = pivot(tableau, row, col)
            pivots += 1
        amounts = tableau[-1, n_nutr:n_nutr + n_foods]
        total_cost = tableau[-1, -1]
        return amounts, total_cost, torch.tensor(pivots)


def model():
    return DietSimplex().eval()


def example_inputs():
    # foods: oats, milk, beans, spinach, peanut butter; nutrients: protein, energy(100 kcal), iron
    nutrients = torch.tensor([
        [13.0, 3.9, 4.7],
        [3.4, 0.6, 0.1],
        [21.0, 3.5, 8.0],
        [2.9, 0.2, 2.7],
        [25.0, 5.9, 1.9],
    ])
    requirements = torch.tensor([55.0, 20.0, 14.0])
    cost = torch.tensor([0.45, 0.30, 0.55, 0.80, 1.10])
    return (nutrients, requirements, cost)


def _random_problem(n_foods, n_nutr, seed):
    g = torch.Generator().manual_seed(seed)
    nutrients = 1.0 + 9.0 * torch.rand(n_foods, n_nutr, generator=g)
    requirements = 20.0 + 30.0 * torch.rand(n_nutr, generator=g)
    cost = 0.5 + torch.rand(n_foods, generator=g)
    return (nutrients, requirements, cost)


def dynamic_shapes():
    foods = Dim("foods", min=2, max=64)
    nutr = Dim("nutrients", min=2, max=16)
    return ({0: foods, 1: nutr}, {0: nutr}, {0: foods})


def verify_inputs():
    return [
        example_inputs(),   # a few pivots, optimum found (entering search and ratio test skip rows)
        # vitamin C required but no food contains any: unbounded dual -> early return
        (torch.tensor([[10.0, 0.0], [4.0, 0.0], [7.0, 0.0]]), torch.tensor([30.0, 5.0]), torch.tensor([1.0, 0.5, 0.6])),
        # 12 foods x 6 nutrients: 7 pivots to the optimum
        _random_problem(12, 6, 1),
        # 16 foods x 8 nutrients needing 12 pivots: pivot budget (10) exhausted -> break
        _random_problem(16, 8, 2),
        # two foods, two nutrients: each food covers one nutrient
        (torch.tensor([[5.0, 0.5], [0.4, 6.0]]), torch.tensor([10.0, 12.0]), torch.tensor([2.0, 3.0])),
    ]
