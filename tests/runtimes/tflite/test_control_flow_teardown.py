"""IF branch outputs that the runtime would compute at Prepare time (regression for issue 4).

LiteRT's IF points a non-constant branch output at the IF output's memory; a branch output
that a kernel filled once in Prepare (RESHAPE of a constant, SHAPE, ...) then leaves the IF
output unwritten and is freed through the wrong pointer when the Interpreter is destroyed
(``free(): invalid pointer``, an abort). The models run in a subprocess, so that a regression
fails the test instead of killing pytest.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.emit import emit_tflite
from deploy.runtimes.tflite.lowering import lower_model
from deploy.runtimes.tflite.ops.control_flow import prepare_time_tensors
from tests.runtimes.tflite.helpers import reference

ROOT = Path(__file__).resolve().parents[3]

# Loads a .tflite with deploy's session, runs every input of inputs.npz in order (several
# invocations without re-allocation, as the verifier does), destroys the interpreter, then
# writes the outputs. A native abort shows as a negative return code.
RUNNER = textwrap.dedent("""
    import gc, sys
    import numpy as np
    from deploy.runtimes.tflite.session import load
    model, inputs, outputs = sys.argv[1:4]
    feeds = np.load(inputs)
    session = load(model)
    results = {name: session.run([feeds[name]])[0] for name in sorted(feeds.files, key=int)}
    del session
    gc.collect()
    np.savez(outputs, **results)
    print("clean exit")
""")


def run_isolated(args: list[str], timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def if_model(then_nodes, else_nodes, out_type: int, out_shape: list) -> onnx.ModelProto:
    """y = If(sum(x) > 0) with the given branches; x is [n, 8] with a dynamic n."""

    def branch(name: str, nodes) -> onnx.GraphProto:
        out = nodes[-1].output[0]
        return helper.make_graph(nodes, name, [], [helper.make_tensor_value_info(out, out_type, out_shape)])

    nodes = [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Greater", ["s", "zero"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=branch("then", then_nodes),
                         else_branch=branch("else", else_nodes)),
    ]  # fmt: skip
    graph = helper.make_graph(
        nodes,
        "if_outputs",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 8])],
        [helper.make_empty_tensor_value_info("y")],
        [onnx.numpy_helper.from_array(np.array(0, np.float32), "zero")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return onnx.shape_inference.infer_shapes(model)


def constant(name: str, value) -> onnx.NodeProto:
    return helper.make_node("Constant", [], [name], value=onnx.numpy_helper.from_array(np.array(value)))


CASES = {
    # the greedy decoder's `if (tok == eos).all(): break` became exactly this: a bool per branch
    "constant": lambda: if_model([constant("a", True)], [constant("b", False)], TensorProto.BOOL, []),
    # SHAPE is always computed at Prepare, whatever its input
    "shape": lambda: if_model(
        [helper.make_node("Shape", ["x"], ["a"])],
        [helper.make_node("Shape", ["x"], ["b0"]), helper.make_node("Neg", ["b0"], ["b"])],
        TensorProto.INT64,
        [2],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_if_branch_outputs_are_never_computed_at_prepare(case):
    builder = lower_model(CASES[case]())
    ifs = [op for sg in builder.subgraphs for op in sg.operators if op.code == OPS.IF]
    assert len(ifs) == 1
    for index in (ifs[0].options.thenSubgraphIndex, ifs[0].options.elseSubgraphIndex):
        sg = builder.subgraphs[index]
        early = prepare_time_tensors(sg)
        for tensor in sg.outputs:
            assert sg.tensors[tensor].data is not None or tensor not in early, (case, sg.name)


@pytest.mark.parametrize("case", sorted(CASES))
def test_if_branch_outputs_survive_repeated_runs_and_teardown(case, tmp_path):
    model = CASES[case]()
    emit_tflite(model, tmp_path / "m.tflite")
    rng = np.random.default_rng(7)
    # both branches, each several times in a row at one size, then at another size
    feeds = [(rng.standard_normal((n, 8)) + sign * 2).astype(np.float32) for n in (2, 2, 2, 2, 3, 3, 3)
             for sign in (1, -1)]  # fmt: skip
    np.savez(tmp_path / "in.npz", **{str(i): f for i, f in enumerate(feeds)})
    done = run_isolated(["-c", RUNNER, str(tmp_path / "m.tflite"), str(tmp_path / "in.npz"),
                         str(tmp_path / "out.npz")])  # fmt: skip
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-2000:]}"
    assert "clean exit" in done.stdout
    actual = np.load(tmp_path / "out.npz")
    for i, feed in enumerate(feeds):
        expected = reference(model, {"x": feed})[0]
        np.testing.assert_array_equal(actual[str(i)], expected)


def test_greedy_decoder_exports_runs_and_exits_cleanly(tmp_path):
    """The model of the report: a for/append/break greedy decoder (WHILE around a cond)."""
    script = textwrap.dedent("""
        import gc, sys
        import numpy as np
        import torch
        from deploy import api
        from deploy.runtimes.tflite.session import load
        sys.path.insert(0, "tests/fixtures")
        import greedy_decoder
        result = api.export("tests/fixtures/greedy_decoder.py", targets=["tflite"], out=sys.argv[1])
        assert result.ok, result.errors
        model = greedy_decoder.model().eval()
        session = load(result.artifacts["tflite"].path)
        torch.manual_seed(1)
        lengths = set()
        for _ in range(12):
            h = torch.randn(1, 8) * 3
            tokens = session.run([h.numpy()])[0]
            expected = model(h).numpy()
            assert np.array_equal(tokens, expected), (tokens, expected)
            lengths.add(tokens.shape[1])
        del session
        gc.collect()
        print("clean exit, output lengths", sorted(lengths))
    """)
    done = run_isolated(["-c", script, str(tmp_path / "out")])
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-3000:]}"
    assert "clean exit" in done.stdout
