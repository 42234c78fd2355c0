"""A helper returning from inside its loop over a list that may be empty (the positions of a
mask): the value the `return` gives is a placeholder until it runs, so a loop that runs 0 times
returns what follows the loop."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

BINS = torch.export.Dim("bins", min=2, max=32)


def first_heavy(route, weights, limit):
    for j in route:
        if weights[j] > limit:
            return j
    return torch.tensor(-1)


class HeavyOnRoute(nn.Module):
    """The first bin on the route (bins with a positive demand) heavier than 3."""

    def forward(self, demand, weights):
        route = torch.nonzero(demand > 0).view(-1)
        return first_heavy(route, weights, 3.0)


def _bins(demand, weights):
    return torch.tensor(demand), torch.tensor(weights)


CASES = [
    Case(
        "helper_returning_from_a_loop_over_a_possibly_empty_list",
        seeded(HeavyOnRoute),
        _bins([1.0, -1.0, 2.0, 0.5], [1.0, 5.0, 4.0, 2.0]),
        [
            _bins([-1.0, -2.0, -0.5], [4.0, 5.0, 6.0]),
            _bins([1.0, 1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 1.5, 2.5, 0.5]),
            _bins([0.5, 2.0], [3.5, 1.0]),
        ],
        ({0: BINS}, {0: BINS}),
    ),
]
