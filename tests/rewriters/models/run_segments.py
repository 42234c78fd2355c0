"""A run-length encoder whose `continue`s nest the rest of the loop body conds deep
(branch_probes.py): runs of one label become (label, last frame) rows, background runs are
skipped, a run after one of the same label is merged into it (`segments[-1] = ...`), and no run at
all gives an empty result. The conds' branches are probed inside the traced loop body; those
probes once took time exponential in the depth and left dead conds whose branch graphs torch's
verifier refused ("Node.meta getitem is missing val field")."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded


class RunSegments(nn.Module):
    def forward(self, scores):
        labels = scores.argmax(-1)
        n = scores.shape[0]
        segments = []
        start = 0
        for t in range(1, n + 1):
            if t < n and labels[t] == labels[start]:
                continue
            label = int(labels[start])
            if label == 0:
                start = t
                continue
            seg = torch.stack([torch.tensor(float(label)), torch.tensor(float(t - 1))])
            if len(segments) > 0 and int(segments[-1][0]) == label:
                segments[-1] = seg
                start = t
                continue
            segments.append(seg)
            start = t
        if not segments:
            return scores.new_zeros(0, 2)
        return torch.stack(segments)


def _labels(*labels):
    return (torch.nn.functional.one_hot(torch.tensor(labels), 3).float(),)


CASES = [
    Case(
        "run_length_segments_with_continues_nested_conds_deep",
        seeded(RunSegments),
        _labels(0, 1, 1, 1, 2, 2, 2, 0),
        [
            _labels(0, 0, 0),  # only background: no segment
            _labels(2, 2),
            _labels(1, 1, 1, 0, 1, 1, 2, 0, 0),  # a run merged into the one before the background
            _labels(1, 2, 1, 1, 2, 2, 2),
        ],
        ({0: torch.export.Dim("frames", min=2, max=64)},),
        constructs=("for->while_loop", "if->cond"),
    ),
]
