"""An If branch returning a value of the enclosing graph as it is: onnxruntime refuses the model
until subgraph_outputs gives that output an Identity inside the branch."""

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from deploy.runtimes.onnx.subgraph_outputs import outputs_made_inside


def _passing_through_model() -> onnx.ModelProto:
    then_body = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["negated"])],
        "then_body",
        [],
        [helper.make_tensor_value_info("negated", TensorProto.FLOAT, [3])],
    )
    else_body = helper.make_graph(  # returns the outer `x` directly: no node makes it here
        [], "else_body", [], [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])]
    )
    graph = helper.make_graph(
        [helper.make_node("If", ["flag"], ["y"], then_branch=then_body, else_branch=else_body)],
        "main",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
            helper.make_tensor_value_info("flag", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _session(model: onnx.ModelProto) -> ort.InferenceSession:
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])


def test_onnxruntime_refuses_a_branch_returning_an_outer_value():
    with pytest.raises(Exception, match="outer scope value"):
        _session(_passing_through_model())


def test_the_branch_output_gets_an_identity_and_runs():
    model = _passing_through_model()
    assert outputs_made_inside(model) == 1
    onnx.checker.check_model(model)
    x = np.array([1.0, -2.0, 3.0], dtype=np.float32)
    session = _session(model)
    for flag, want in ((True, -x), (False, x)):
        (got,) = session.run(None, {"x": x, "flag": np.array(flag)})
        np.testing.assert_array_equal(got, want)
    assert outputs_made_inside(model) == 0  # once is enough
