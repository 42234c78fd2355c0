"""The truth value of a list a converted loop filled (`torch.stack(keep) if keep else ...`,
`if not hits:`): its length > 0, kept symbolic when the length is data-dependent."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class KeptPositions(nn.Module):
    """Top-k positions whose value is positive (k = min(3, n)); empty when none is."""

    def forward(self, x):
        k = min(3, x.shape[0])
        ranked = x[:, 0] + 1e-3 * torch.arange(x.shape[0])  # no ties, whatever the input
        vals, idx = ranked.topk(k)
        keep = []
        for j in range(k):
            if vals[j] > 0:
                keep.append(idx[j])
        kept = torch.stack(keep) if keep else torch.zeros(0, dtype=torch.long)
        if not keep:
            return kept, torch.zeros(())
        return kept, x[:, 1].sum()


def _x(values):
    x = torch.zeros(len(values), 2)
    x[:, 0] = torch.tensor(values)
    x[:, 1] = torch.arange(len(values), dtype=torch.float32)
    return (x,)


CASES = [
    Case(
        "truth_of_a_list_a_loop_filled",
        seeded(KeptPositions),
        _x([0.5, -0.2, 0.9, 0.1, -0.7]),
        [
            _x([-0.5, -0.2, -0.9, -0.1]),
            _x([0.3, 0.8, -0.6, 0.2, 0.4, -0.1, 0.6]),
            _x([-0.4, 0.7, -0.3, -0.8]),
        ],
        ({0: torch.export.Dim("items", min=4, max=32)},),
        constructs=("for->while_loop",),
    ),
]
