"""`while` loops whose carried tensors get shorter each iteration (merging neighbours, as a BPE
tokenizer does): carried as buffers of their size before the loop and their current lengths."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

ITEMS = torch.export.Dim("items", min=2, max=64)
NONE = 1 << 20


def pair_costs(values):
    if values.shape[0] < 2:
        return torch.full((1,), NONE, dtype=torch.long)
    return values[:-1] + values[1:]


class MergeCheapestPairs(nn.Module):
    """Merge the cheapest adjacent pair while one costs under 10, at most 5 times; the merged
    values padded back to the input's length with -1."""

    def forward(self, values):
        n = values.shape[0]
        costs = pair_costs(values)
        merges = 0
        while bool((costs < 10).any()):
            if merges >= 5:
                break
            p = int(torch.argmin(costs * 64 + torch.arange(costs.shape[0])))
            values = torch.cat([values[:p], (values[p] + values[p + 1]).view(1), values[p + 2 :]])
            merges += 1
            costs = pair_costs(values)
        return torch.cat([values, torch.full((n - values.shape[0],), -1, dtype=torch.long)])


def _values(*v):
    return (torch.tensor(v, dtype=torch.long),)


CASES = [
    Case(
        "while_loop_whose_value_gets_one_entry_shorter_per_iteration",
        seeded(MergeCheapestPairs),
        _values(4, 1, 9, 2, 3, 20, 1, 1),
        [
            _values(30, 40, 50),  # nothing to merge: 0 iterations
            _values(1, 2, 3),  # merges down to one value
            _values(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),  # stops after 5 merges
            _values(8, 12),
        ],
        ({0: ITEMS},),
    ),
]
