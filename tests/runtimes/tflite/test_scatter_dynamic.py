"""ScatterElements over run-time shapes: the coordinate grid is built from RANGEs of the run-time
sizes; indices hit twice with the same value (a mask) give that value."""

from __future__ import annotations

import numpy as np
import torch
from torch.export import Dim

from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches


class SeenMask(torch.nn.Module):
    def forward(self, history, scores):
        seen = torch.zeros(history.shape[0], 10).scatter(1, history, torch.ones(history.shape))
        rows = torch.arange(history.shape[0] - 1, -1, -1)[:, None].expand(-1, 3)
        placed = torch.zeros(history.shape[0], 3).scatter(0, rows, scores)
        return torch.where(seen > 0, -1.0, 0.0), placed


def test_scatter_over_a_dynamic_batch_matches():
    batch = Dim("batch", min=1, max=32)
    example = (torch.randint(0, 10, (4, 3)), torch.rand(4, 3))
    model = to_onnx(SeenMask(), example, ({0: batch}, {0: batch}))
    rng = np.random.default_rng(0)
    for n in (4, 1, 20):
        history = rng.integers(0, 10, (n, 3)).astype(np.int64)
        history[:, 2] = history[:, 0]  # a repeated item: the same 1.0 written twice
        feeds = dict(
            zip([i.name for i in model.graph.input], [history, rng.random((n, 3), dtype=np.float32)])
        )
        assert_matches(model, feeds)


class PickCandidates(torch.nn.Module):
    """torch.gather over a dynamic number of rows and candidates (GatherElements)."""

    def forward(self, scores, picks):
        return scores.gather(1, picks) * 2.0, scores.gather(0, picks[:, :1].expand(-1, scores.shape[1]) % 2)


def test_gather_over_dynamic_shapes_matches():
    rows, cands = Dim("rows", min=2, max=16), Dim("cands", min=2, max=40)
    example = (torch.rand(3, 7), torch.randint(0, 7, (3, 4)))
    model = to_onnx(PickCandidates(), example, ({0: rows, 1: cands}, {0: rows}))
    rng = np.random.default_rng(1)
    for n, c in ((3, 7), (2, 2), (11, 33)):
        feeds = dict(
            zip(
                [i.name for i in model.graph.input],
                [rng.random((n, c), dtype=np.float32), rng.integers(0, c, (n, 4)).astype(np.int64)],
            )
        )
        assert_matches(model, feeds)


def test_scatter_nd_of_one_index_tuple_matches():
    """`d[i, j] = v` exports as ScatterND with indices of shape (2,) and a scalar update; TFLite's
    SCATTER_ND needs a batch of index tuples and updates of rank >= 1."""
    from onnx import helper

    from tests.runtimes.tflite.helpers import graph_model

    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    index, update = np.array([2, 1], dtype=np.int64), np.array(-5.0, dtype=np.float32)
    node = helper.make_node("ScatterND", ["d", "i", "u"], ["y"])
    model = graph_model([node], {"d": data, "i": index, "u": update}, ["y"])
    assert_matches(model, {"d": data, "i": index, "u": update})


def test_scatter_nd_at_negative_positions_counts_from_the_end():
    """`hits[-1] += 1`: ONNX ScatterND takes index -1 as the last position; TFLite's SCATTER_ND
    would refuse it as out of bounds."""
    from onnx import helper

    from tests.runtimes.tflite.helpers import graph_model

    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    index = np.array([[-1, 0], [0, -2]], dtype=np.int64)
    update = np.array([-5.0, 7.0], dtype=np.float32)
    node = helper.make_node("ScatterND", ["d", "i", "u"], ["y"])
    model = graph_model([node], {"d": data, "i": index, "u": update}, ["y"])
    assert_matches(model, {"d": data, "i": index, "u": update})
