"""Lists and tuples of numbers appended as rows (passes/row_literals.py): the spans where a level
stays above a threshold, collected as `(start, end)` pairs in a loop with a Python flag, one more
pair after the loop for a span still open, then read back by `torch.tensor(spans)` and by a loop
unpacking each pair."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SAMPLES = torch.export.Dim("samples", min=4, max=64)


class AboveSpans(nn.Module):
    """Spans (start, end) of samples above 0.5; their peak levels; an empty result for none."""

    def forward(self, level):
        spans = []
        inside = False
        start = 0
        for i in range(level.shape[0]):
            if not inside and level[i] > 0.5:
                inside = True
                start = i
            elif inside and level[i] < 0.5:
                inside = False
                spans.append((start, i - 1))
        if inside:
            spans.append([start, level.shape[0] - 1])
        if len(spans) == 0:
            return torch.zeros(0, 2, dtype=torch.long), torch.zeros(0)
        peaks = []
        for s, e in spans:
            peaks.append(level[s : e + 1].amax())
        return torch.tensor(spans), torch.stack(peaks)


def _level(*values):
    return (torch.tensor(values),)


CASES = [
    Case(
        "pairs_of_numbers_appended_as_rows_and_read_back",
        seeded(AboveSpans),
        _level(0.1, 0.9, 0.8, 0.2, 0.7, 0.1, 0.3, 0.9),
        [
            _level(0.1, 0.2, 0.3, 0.4),  # no span
            _level(0.9, 0.1, 0.2, 0.3),  # one closed span
            _level(0.1, 0.2, 0.9, 0.8, 0.7),  # a span open at the end
            _level(0.9, 0.8, 0.1, 0.9, 0.1, 0.7, 0.6, 0.2, 0.3),
        ],
        ({0: SAMPLES},),
    ),
]
