"""torch.unique (ONNX Unique, sorted, values only) over a run-time number of elements: UNIQUE then
an ascending order by TOPK_V2 of the negated values."""

from __future__ import annotations

import numpy as np
import torch
from torch.export import Dim

from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches


class Labels(torch.nn.Module):
    def forward(self, lab, x):
        ids = torch.unique(lab)
        return ids[ids > 0] * 2, torch.unique(x.round())


def test_sorted_unique_values_match():
    size = Dim("size", min=2, max=64)
    example = (torch.tensor([[3, 0, 3], [7, 1, 0]]), torch.rand(3) * 4)
    model = to_onnx(Labels(), example, ({1: size}, {0: size}))
    rng = np.random.default_rng(0)
    for n in (3, 2, 40):
        labels = rng.integers(0, 9, (2, n)).astype(np.int64)
        values = (rng.random(n) * 6 - 3).astype(np.float32)
        feeds = dict(zip([i.name for i in model.graph.input], [labels, values]))
        assert_matches(model, feeds)
