"""`while` loops with no bound on the rows they append, a loop nested in their body appending too
(row_lists.counted_while_rows: the loop runs twice, counting the rows, then filling them):

- a state machine over a signal whose repair state skips samples in a nested `while`, each skipped
  sample a row, with a trailing window ``x[t - 3 : t + 1]`` read in a helper (bounded_slices);
- a greedy cutter trying a fixed list of lengths (a module setting) in a Python loop that breaks
  at the first fit.
"""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class RepairSkips(nn.Module):
    """Per sample a state code; two low samples in a row stop the machine, and the samples until
    the level is back are skipped (code 3) by a nested `while`."""

    def __init__(self):
        super().__init__()
        self.score = nn.Linear(4, 1)

    def low(self, x, t):
        if t < 4:
            return x[t] < 0.3
        window = x[t - 3 : t + 1]
        return x[t] + 0.01 * torch.tanh(self.score(window)).squeeze() < 0.3

    def forward(self, x):
        n = x.shape[0]
        codes = []
        stops = 0
        suspect = False
        t = 0
        while t < n:
            if self.low(x, t):
                if suspect:
                    codes.append(torch.tensor(2))
                    stops += 1
                    suspect = False
                    t += 1
                    while t < n and x[t] < 0.8:
                        codes.append(torch.tensor(3))
                        t += 1
                    continue
                suspect = True
                codes.append(torch.tensor(1))
            else:
                suspect = False
                codes.append(torch.tensor(0))
            t += 1
        return torch.stack(codes), torch.tensor(stops)


LENGTHS = ((7, 2.0), (5, 1.5), (3, 1.0))


class GreedyCutter(nn.Module):
    """Cut the longest length whose piece is thick enough, else trim one sample."""

    def __init__(self):
        super().__init__()
        self.lengths = LENGTHS

    def forward(self, thickness):
        n = thickness.shape[0]
        pieces = []
        pos = 0
        while pos + 3 <= n:
            cut = False
            for length, least in self.lengths:
                if pos + length > n:
                    continue
                if thickness[pos : pos + length].min() >= least:
                    pieces.append(
                        torch.stack([torch.tensor(float(pos)), thickness[pos : pos + length].mean()])
                    )
                    pos += length
                    cut = True
                    break
            if not cut:
                pos += 1
        if len(pieces) == 0:
            return torch.zeros(1, 2)
        return torch.stack(pieces)


def _signal(n, breaks, seed):
    x = 1.0 + 0.05 * torch.randn(n, generator=torch.Generator().manual_seed(seed))
    for b in breaks:
        x[b : b + 2] = 0.1
        x[b + 2 : b + 5] = 0.6
    return (x,)


def _stem(n, seed, scale=2.5):
    return (scale * torch.rand(n, generator=torch.Generator().manual_seed(seed)) + 0.5,)


CASES = [
    Case(
        "a_state_machine_whose_nested_while_appends_skipped_samples",
        seeded(RepairSkips),
        _signal(24, (8,), 1),
        [_signal(8, (), 2), _signal(40, (2, 20, 30), 3), _signal(12, (6,), 4)],
        ({0: torch.export.Dim("n", min=8, max=64)},),
        constructs=("while->while_loop", "if->cond"),
    ),
    Case(
        "a_greedy_cutter_trying_a_fixed_list_of_lengths",
        seeded(GreedyCutter),
        _stem(20, 1),
        [_stem(4, 2, scale=0.1), _stem(40, 3), _stem(12, 4, scale=1.2)],
        ({0: torch.export.Dim("n", min=4, max=48)},),
        constructs=("while->while_loop", "if->cond"),
    ),
]
