"""Unsupported ops: a clear error naming op, node and the user's source line; check_onnx lists every problem."""

import inspect

import numpy as np
import pytest
import torch
from onnx import TensorProto, helper

from deploy.errors import UnsupportedOpError
from deploy.runtimes.onnx.source import node_source, parse_stack_trace
from deploy.runtimes.tflite.check import check_onnx
from deploy.runtimes.tflite.emit import emit_tflite
from tests.runtimes.tflite.export_helpers import to_onnx


class DetModel(torch.nn.Module):
    def forward(self, x):
        y = torch.relu(x)
        return torch.linalg.det(y)  # ONNX Det: no TFLite lowering


DET_LINE = inspect.getsourcelines(DetModel.forward)[1] + 2


def test_unsupported_op_names_op_node_and_source_line(tmp_path):
    proto = to_onnx(DetModel(), (torch.randn(2, 3, 3),))
    target = tmp_path / "m.tflite"
    with pytest.raises(UnsupportedOpError) as caught:
        emit_tflite(proto, target)
    error = caught.value
    det_node = next(n for n in proto.graph.node if n.op_type == "Det")
    assert f"ONNX op Det (node {det_node.name})" in error.message
    assert error.file == __file__ and error.line == DET_LINE
    assert error.exit_code == 1
    assert not target.exists() and not list(tmp_path.iterdir())  # nothing half-written


def test_check_onnx_collects_every_problem():
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="relu"),
        helper.make_node("Det", ["a"], ["b"], name="det"),
        helper.make_node("Unique", ["b"], ["c"], name="unique", axis=0),  # along an axis: not lowered
        helper.make_node("Sigmoid", ["c"], ["y"], name="sigmoid"),
    ]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 8, 2])],
                              [helper.make_empty_tensor_value_info("y")])  # fmt: skip
    report = check_onnx(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]))
    assert [(r.node, r.supported) for r in report] == [("relu", True), ("det", False), ("unique", False),
                                                        ("sigmoid", True)]  # fmt: skip
    assert all(r.reason for r in report)


def test_check_onnx_reports_source_lines():
    report = check_onnx(to_onnx(DetModel(), (torch.randn(2, 3, 3),)))
    failed = [r for r in report if not r.supported]
    assert [r.op for r in failed] == ["Det"]
    assert failed[0].where == f"{__file__}:{DET_LINE}"


def test_parse_stack_trace_picks_innermost_user_frame(tmp_path):
    model, helper_file = tmp_path / "model.py", tmp_path / "helpers.py"
    model.write_text("x = 1\n")
    helper_file.write_text("y = 2\n")
    trace = (
        f'File "{model}", line 17, in forward\n    y = helper(x)\n'
        f'File "{helper_file}", line 4, in helper\n    return x.sin()\n'
        'File "/venv/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1778, in _call_impl\n'
    )
    assert parse_stack_trace(trace) == (str(helper_file), 4)
    assert parse_stack_trace('File "/x/site-packages/torch/a.py", line 3, in f') is None
    assert parse_stack_trace('File "<eval_with_key>.3", line 3, in forward') is None
    assert node_source(helper.make_node("Relu", ["a"], ["b"])) is None


def test_dynamic_input_spec_and_resize(tmp_path):
    from deploy.runtimes.tflite.session import load

    value = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "g", [value], [helper.make_empty_tensor_value_info("y")]
    )
    info = emit_tflite(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)]), tmp_path / "d.tflite"
    )
    session = load(info["path"])
    assert session.runtime == "ai-edge-litert"
    assert session.input_specs[0].shape == (None, 3)
    for batch in (1, 6):
        x = np.random.default_rng(batch).standard_normal((batch, 3)).astype(np.float32)
        np.testing.assert_array_equal(session.run([x])[0], np.maximum(x, 0))


def test_user_registered_lowering_is_used(tmp_path):
    """A lowering registered from user code (here for a custom-domain op) takes part like a built-in one."""
    from deploy.runtimes.tflite.builder import OPS
    from deploy.runtimes.tflite.registry import LOWERINGS, lower

    @lower("Twice", domain="my.ops")
    def lower_twice(ctx, node):
        x = ctx.input(node, 0)
        return ctx.emit(OPS.ADD, [ctx.native(x), ctx.native(x)], x.shape, x.dtype)

    try:
        node = helper.make_node("Twice", ["x"], ["y"], domain="my.ops")
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                                  [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])])  # fmt: skip
        model = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 20), helper.make_opsetid("my.ops", 1)]
        )
        info = emit_tflite(model, tmp_path / "t.tflite")
        from deploy.runtimes.tflite.session import load

        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        np.testing.assert_array_equal(load(info["path"]).run([x])[0], 2 * x)
    finally:
        LOWERINGS.pop(("my.ops", "Twice"), None)
