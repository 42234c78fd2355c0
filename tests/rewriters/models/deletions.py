"""``del xs[i]`` in a tensor `while` (passes/deletions.py, row_loops.deleted_rows): intervals a
graph loop collected are merged pairwise, the merged one stored at ``i`` and its neighbour deleted,
so the list gets shorter by a data-dependent number of entries."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class MergedIntervals(nn.Module):
    def __init__(self):
        super().__init__()
        self.score = nn.Linear(3, 1)

    def forward(self, events):
        # events: (n, 3) [start, length, keep-if-positive]
        spans = []
        for t in range(events.shape[0]):
            if events[t, 2] > 0:
                spans.append(torch.stack([events[t, 0], events[t, 0] + events[t, 1].abs()]))
        if len(spans) == 0:
            return torch.zeros(0, 3)
        i = 0
        while i < len(spans) - 1:
            a, b = spans[i], spans[i + 1]
            if b[0] - a[1] < 0.5:
                spans[i] = torch.stack([a[0], torch.maximum(a[1], b[1])])
                del spans[i + 1]
            else:
                i += 1
        merged = torch.stack(spans)
        width = merged[:, 1:] - merged[:, :1]
        return torch.cat([merged, torch.sigmoid(self.score(torch.cat([merged, width], 1)))], 1)


def _events(n, seed, keep=0.3):
    g = torch.Generator().manual_seed(seed)
    start = torch.cumsum(torch.rand(n, generator=g) * 2.0, 0)
    return (torch.stack([start, torch.rand(n, generator=g), torch.rand(n, generator=g) - keep], 1),)


CASES = [
    Case(
        "a_list_a_graph_loop_filled_merged_pairwise_by_del_in_a_tensor_while",
        seeded(MergedIntervals),
        _events(12, 0),
        [
            _events(30, 1),  # several merges, some runs of three
            _events(5, 2, keep=-1.0),  # every event kept
            _events(4, 3, keep=2.0),  # none kept: the early return
            (torch.tensor([[0.0, 1.0, 1.0], [1.2, 1.0, 1.0], [2.4, 1.0, 1.0]]),),  # all merged into one
            (torch.tensor([[0.0, 0.2, 1.0], [5.0, 0.2, 1.0], [9.0, 0.2, -1.0]]),),  # none merged
        ],
        ({0: torch.export.Dim("n", min=2, max=64)},),
        constructs=("while->while_loop",),
    ),
]
