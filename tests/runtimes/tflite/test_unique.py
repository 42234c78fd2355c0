"""torch.unique (ONNX Unique, sorted) over a run-time number of elements: UNIQUE then an ascending
order by TOPK_V2 of the negated values; its inverse indices and counts (a voxel grid's cells)."""

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


class Cells(torch.nn.Module):
    """Points pooled per occupied cell: the mean of each cell's points and the cell of each point."""

    def forward(self, keys, points):
        cells, inverse, counts = torch.unique(keys, return_inverse=True, return_counts=True)
        sums = torch.zeros(cells.shape[0], points.shape[1]).index_add(0, inverse, points)
        return sums / counts.unsqueeze(1).float(), inverse, cells


def test_inverse_indices_and_counts_match():
    size = Dim("size", min=2, max=64)
    example = (torch.tensor([5, 2, 5, 9]), torch.rand(4, 3))
    model = to_onnx(Cells(), example, ({0: size}, {0: size}))
    rng = np.random.default_rng(1)
    for n, high in ((4, 10), (2, 2), (50, 7), (33, 1000)):
        keys = rng.integers(0, high, n).astype(np.int64)
        points = rng.random((n, 3)).astype(np.float32)
        feeds = dict(zip([i.name for i in model.graph.input], [keys, points]))
        assert_matches(model, feeds)
