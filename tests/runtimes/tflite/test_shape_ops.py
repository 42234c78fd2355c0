"""Shape and slicing ops, including layout remapping (ops after an NHWC conv) and dynamic dims."""

import numpy as np
import pytest
from onnx import TensorProto, helper

from tests.runtimes.tflite.helpers import assert_matches, graph_model, lower_and_run, reference

RNG = np.random.default_rng(2)
X = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
I64 = lambda *v: np.array(v, dtype=np.int64)  # noqa: E731

CASES = {
    "reshape": ([helper.make_node("Reshape", ["x", "s"], ["y"])], {"s": I64(2, -1, 5)}),
    "flatten": ([helper.make_node("Flatten", ["x"], ["y"], axis=2)], {}),
    "transpose": ([helper.make_node("Transpose", ["x"], ["y"], perm=[3, 1, 0, 2])], {}),
    "concat": ([helper.make_node("Concat", ["x", "x"], ["y"], axis=1)], {}),
    "split": ([helper.make_node("Split", ["x", "s"], ["y", "z"], axis=3)], {"s": I64(2, 3)}),
    "slice": (
        [helper.make_node("Slice", ["x", "b", "e", "a", "st"], ["y"])],
        {"b": I64(1, 4), "e": I64(3, 0), "a": I64(2, 3), "st": I64(1, -2)},
    ),  # fmt: skip
    # `x[..., :0]`: XNNPACK's slice returned the whole axis for begin == end
    "slice_empty": (
        [helper.make_node("Slice", ["x", "b", "e", "a"], ["y"])],
        {"b": I64(0), "e": I64(0), "a": I64(3)},
    ),
    "gather": ([helper.make_node("Gather", ["x", "i"], ["y"], axis=3)], {"i": I64(4, -1, 0)}),
    "pad": ([helper.make_node("Pad", ["x", "p"], ["y"], mode="reflect")], {"p": I64(0, 0, 1, 2, 0, 0, 1, 2)}),
    # torch's circular padding (F.pad(x, (1, 1, 1, 1), mode="circular"), a wrapped game board)
    "pad_wrap": (
        [helper.make_node("Pad", ["x", "p"], ["y"], mode="wrap")],
        {"p": I64(0, 0, 1, 2, 0, 0, 2, 1)},
    ),
    "squeeze": (
        [helper.make_node("Unsqueeze", ["x", "a"], ["u"]), helper.make_node("Squeeze", ["u", "a"], ["y"])],
        {"a": I64(0, 3)},
    ),  # fmt: skip
    "expand": ([helper.make_node("Expand", ["x", "s"], ["y"])], {"s": I64(3, 2, 1, 1, 1)}),
    "tile": ([helper.make_node("Tile", ["x", "r"], ["y"])], {"r": I64(1, 2, 1, 2)}),
    "depth_to_space": ([helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=1)], {}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_shape_op(name):
    nodes, consts = CASES[name]
    assert_matches(graph_model(nodes, {"x": X}, ["y"], consts), {"x": X})


@pytest.mark.parametrize("name", ["concat", "split", "slice", "pad", "pad_wrap", "transpose", "gather"])
def test_shape_op_after_nhwc_conv(name):
    """The same op reading a tensor that lives in NHWC: its axes must be remapped."""
    nodes, consts = CASES[name]
    w = RNG.standard_normal((3, 3, 1, 1)).astype(np.float32)
    conv = helper.make_node("Conv", ["x0", "w"], ["x"])
    model = graph_model([conv, *nodes], {"x0": X}, ["y"], {**consts, "w": w})
    assert_matches(model, {"x0": X}, atol=1e-5)


def test_dynamic_sequence_dim():
    """Shape -> Gather -> Reshape on a dynamic dim; the .tflite runs at several lengths."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "one"], ["t"], axis=0),
        helper.make_node("Unsqueeze", ["t", "zero"], ["t1"]),
        helper.make_node("Concat", ["t1", "minus"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"]),
    ]
    value = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "seq", 4])
    graph = helper.make_graph(nodes, "dyn", [value], [helper.make_empty_tensor_value_info("y")],
                              [helper.make_tensor(n, TensorProto.INT64, dims, v)
                               for n, dims, v in (("one", [], [1]), ("zero", [1], [0]), ("minus", [1], [-1]))])  # fmt: skip
    import onnx

    model = onnx.shape_inference.infer_shapes(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    )
    for length in (3, 7):
        x = RNG.standard_normal((1, length, 4)).astype(np.float32)
        actual, _ = lower_and_run(model, {"x": x})
        np.testing.assert_allclose(actual[0], reference(model, {"x": x})[0])


@pytest.mark.parametrize(("upper", "k"), [(0, 0), (1, 0), (0, 1), (1, -1)])
def test_trilu_over_dynamic_matrix_dims(tmp_path, upper, k):
    """A causal mask over a length known only at run time (`torch.ones(n, n).tril()`)."""
    import onnx
    from onnx import helper as onnx_helper

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.helpers import reference

    x = onnx_helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, "rows", "cols"])
    k_init = onnx.numpy_helper.from_array(np.array(k, np.int64), "k")
    node = onnx_helper.make_node("Trilu", ["x", "k"], ["y"], upper=upper)
    graph = onnx_helper.make_graph(
        [node], "trilu", [x], [onnx_helper.make_empty_tensor_value_info("y")], [k_init]
    )
    model = onnx_helper.make_model(graph, opset_imports=[onnx_helper.make_opsetid("", 20)])
    session = load(emit_tflite(model, tmp_path / "trilu.tflite")["path"])
    rng = np.random.default_rng(0)
    for rows, cols in ((1, 1), (3, 3), (4, 7), (6, 2)):
        data = rng.standard_normal((2, rows, cols)).astype(np.float32)
        (actual,) = session.run([data])
        np.testing.assert_array_equal(actual, reference(model, {"x": data})[0])


def test_negative_index_and_eye_over_dynamic_dims(tmp_path):
    """`out[:, -1]` over a dynamic length (GATHER needs the index wrapped by the run-time size) and
    an identity matrix the size of a dynamic input (EyeLike)."""
    import torch

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.export_helpers import to_onnx

    class LastAndEye(torch.nn.Module):
        def forward(self, x, a):
            return x[:, -1], a - torch.diag_embed(torch.diagonal(a))

    t, n = torch.export.Dim("t", min=2, max=40), torch.export.Dim("n", min=2, max=16)
    model = to_onnx(LastAndEye(), (torch.randn(2, 7, 3), torch.randn(5, 5)), ({1: t}, {0: n, 1: n}))
    session = load(emit_tflite(model, tmp_path / "m.tflite")["path"])
    for length, size in ((2, 2), (9, 6), (30, 16)):
        x, a = torch.randn(2, length, 3), torch.randn(size, size)
        for got, want in zip(session.run([x.numpy(), a.numpy()]), LastAndEye()(x, a), strict=True):
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-6, atol=1e-6)


def test_two_transposes_of_one_tensor_each_keep_their_order():
    """``movedim(1, 0)`` and ``movedim(2, 0)`` of one tensor, each read in ONNX order by a Reshape:
    both Transposes share the input's tensor, and each must get its own TRANSPOSE."""
    nodes = [
        helper.make_node("Transpose", ["x"], ["a"], perm=[1, 0, 2, 3]),
        helper.make_node("Transpose", ["x"], ["b"], perm=[2, 0, 1, 3]),
        helper.make_node("Reshape", ["a", "s"], ["y"]),
        helper.make_node("Reshape", ["b", "s"], ["z"]),
    ]
    model = graph_model(nodes, {"x": X}, ["y", "z"], {"s": I64(-1, 20)})
    assert_matches(model, {"x": X})
