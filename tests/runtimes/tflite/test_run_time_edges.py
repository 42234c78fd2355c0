"""Lowerings at the edges of run-time sizes: Pad mode 'edge' (F.pad replicate) with pads computed
at run time or wider than 1 (a GATHER of clamped positions), and ArgMax over an axis that may be
empty in a branch that does not run."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch.export import Dim

from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches


class PadToMultiple(torch.nn.Module):
    def forward(self, x):
        pad = (4 - x.shape[-1] % 4) % 4
        return F.pad(x, (0, pad), mode="replicate"), F.pad(x, (3, 2), mode="replicate")


def test_replicate_pad_over_run_time_sizes_matches():
    example = (torch.randn(2, 3, 16),)
    model = to_onnx(PadToMultiple(), example, ({2: Dim("length", min=2, max=64)},))
    rng = np.random.default_rng(0)
    for length in (16, 13, 2, 63):
        x = rng.standard_normal((2, 3, length)).astype(np.float32)
        assert_matches(model, {model.graph.input[0].name: x})


def test_argmax_in_a_branch_not_taken_on_an_empty_axis():
    """`if tail.shape[0] > 0: tail.argmax()`: TFLite prepares the IF branch for the empty tail too,
    and refuses ARG_MAX over an empty axis; the lowering appends an entry that never wins."""
    import onnx
    from onnx import TensorProto, helper

    then_graph = helper.make_graph(
        [helper.make_node("ArgMax", ["x"], ["a"], axis=0, keepdims=0)],
        "then",
        [],
        [helper.make_tensor_value_info("a", TensorProto.INT64, [])],
    )
    minus_one = helper.make_tensor("m", TensorProto.INT64, [], [-1])
    else_graph = helper.make_graph(
        [helper.make_node("Constant", [], ["b"], value=minus_one)],
        "else",
        [],
        [helper.make_tensor_value_info("b", TensorProto.INT64, [])],
    )
    nodes = [
        helper.make_node("Size", ["x"], ["n"]),
        helper.make_node("Greater", ["n", "zero"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=then_graph, else_branch=else_graph),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [])],
        [helper.make_tensor("zero", TensorProto.INT64, [], [0])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    model = onnx.shape_inference.infer_shapes(model)
    for x in (np.array([0.5, 2.0, -1.0, 2.0], np.float32), np.zeros(0, np.float32)):
        assert_matches(model, {"x": x}, rtol=0, atol=0)


class SmoothExcludingPads(torch.nn.Module):
    def forward(self, x):
        return F.avg_pool1d(x, 3, stride=1, padding=1, count_include_pad=False)


def test_average_pool_excluding_pads_over_a_run_time_length():
    """Stride-1 windows pad the same for every length: TFLite's SAME padding, whose averages
    exclude the padding as count_include_pad=False does."""
    model = to_onnx(SmoothExcludingPads(), (torch.randn(1, 2, 20),), ({2: Dim("length", min=2, max=64)},))
    rng = np.random.default_rng(2)
    for length in (20, 2, 3, 41):
        x = rng.standard_normal((1, 2, length)).astype(np.float32)
        assert_matches(model, {model.graph.input[0].name: x})


class KeptRows(torch.nn.Module):
    """The rows whose flag is set, gathered at the flags' nonzero positions: no rows at all when
    none is set (a loop that kept nothing)."""

    def forward(self, x):
        rows = x[x.sum(1) > 0]  # none when every row sums below 0
        picked = (rows[:, 0] > 0).nonzero().squeeze(1)
        return rows.index_select(0, picked) * 2.0


def test_gather_of_no_positions_from_no_rows_does_not_divide_by_zero():
    example = (torch.randn(5, 3),)
    model = to_onnx(KeptRows(), example, ({0: Dim("rows", min=2, max=32)},))
    rng = np.random.default_rng(1)
    for x in (rng.standard_normal((5, 3)), -np.ones((4, 3)), np.ones((2, 3))):
        assert_matches(model, {model.graph.input[0].name: x.astype(np.float32)})
