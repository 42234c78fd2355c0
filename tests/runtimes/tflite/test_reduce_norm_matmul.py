"""Reductions, normalisations, softmax and matrix products (FULLY_CONNECTED / BATCH_MATMUL, bias folding)."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from tests.runtimes.tflite.helpers import assert_matches, graph_model

RNG = np.random.default_rng(3)
X = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)


@pytest.mark.parametrize(
    "op", ["ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceL2", "ReduceLogSumExp"]
)
@pytest.mark.parametrize("keepdims", [0, 1])
def test_reductions(op, keepdims):
    model = graph_model([helper.make_node(op, ["x", "a"], ["y"], keepdims=keepdims)], {"x": X}, ["y"],
                        {"a": np.array([1, -1], np.int64)})  # fmt: skip
    assert_matches(model, {"x": X})


def test_argmax_last_index():
    x = RNG.integers(0, 3, (3, 6)).astype(np.float32)
    node = helper.make_node("ArgMax", ["x"], ["y"], axis=1, select_last_index=1)
    assert_matches(graph_model([node], {"x": x}, ["y"]), {"x": x})


@pytest.mark.parametrize("op", ["ArgMax", "ArgMin"])
@pytest.mark.parametrize("last", [0, 1])
def test_arg_of_int64_values_beyond_int32_with_ties(op, last):
    # TFLite's ARG_MAX/ARG_MIN take no int64: the first (or last) entry equal to the extreme, exactly
    x = np.array([[3, 2**40, -(2**40), 2**40 + 1, 2**40 + 1, 5], [7, 7, -7, -7, 0, 1]], np.int64)
    node = helper.make_node(op, ["x"], ["y"], axis=1, keepdims=0, select_last_index=last)
    assert_matches(graph_model([node], {"x": x}, ["y"]), {"x": x})


@pytest.mark.parametrize("axis", [1, -1])
def test_softmax_after_conv(axis):
    w = RNG.standard_normal((3, 3, 1, 1)).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"]),
        helper.make_node("Softmax", ["c"], ["y"], axis=axis),
    ]
    info = assert_matches(graph_model(nodes, {"x": X[:, :, :, :]}, ["y"], {"w": w}), {"x": X})
    assert info["ops"]["SOFTMAX"] == 1


def test_layer_and_batch_norm():
    c = X.shape[1]
    consts = {"g": RNG.random(5).astype(np.float32), "b": RNG.random(5).astype(np.float32),
              "s": RNG.random(c).astype(np.float32) + 0.5, "bb": RNG.random(c).astype(np.float32),
              "m": RNG.random(c).astype(np.float32), "v": RNG.random(c).astype(np.float32) + 0.5}  # fmt: skip
    nodes = [
        helper.make_node("BatchNormalization", ["x", "s", "bb", "m", "v"], ["n"]),
        helper.make_node("LayerNormalization", ["n", "g", "b"], ["y"], axis=-1),
    ]
    assert_matches(graph_model(nodes, {"x": X}, ["y"], consts), {"x": X}, atol=1e-5)


def test_instance_norm():
    c = X.shape[1]
    consts = {"s": RNG.random(c).astype(np.float32), "b": RNG.random(c).astype(np.float32)}
    node = helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"])
    assert_matches(graph_model([node], {"x": X}, ["y"], consts), {"x": X}, atol=1e-5)


def test_gemm_becomes_fully_connected_with_fused_relu():
    x = RNG.standard_normal((4, 8)).astype(np.float32)
    consts = {
        "w": RNG.standard_normal((6, 8)).astype(np.float32),
        "b": RNG.standard_normal(6).astype(np.float32),
    }
    nodes = [
        helper.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1),
        helper.make_node("Relu", ["g"], ["y"]),
    ]
    info = assert_matches(graph_model(nodes, {"x": x}, ["y"], consts), {"x": x})
    assert info["ops"] == {"FULLY_CONNECTED": 1}


def test_matmul_add_folds_bias():
    x = RNG.standard_normal((2, 5, 8)).astype(np.float32)
    consts = {
        "w": RNG.standard_normal((8, 6)).astype(np.float32),
        "b": RNG.standard_normal(6).astype(np.float32),
    }
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["y"])]
    info = assert_matches(graph_model(nodes, {"x": x}, ["y"], consts), {"x": x})
    assert info["ops"] == {"FULLY_CONNECTED": 1}


def test_batch_matmul_with_transposed_operand():
    a = RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b = RNG.standard_normal((2, 3, 6, 5)).astype(np.float32)
    nodes = [
        helper.make_node("Transpose", ["b"], ["bt"], perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["a", "bt"], ["y"]),
    ]
    info = assert_matches(graph_model(nodes, {"a": a, "b": b}, ["y"]), {"a": a, "b": b})
    assert info["ops"] == {"BATCH_MATMUL": 1}  # the transpose became adj_y


@pytest.mark.parametrize("rows, cols", [(4, 0), (0, 3), (0, 0), (4, 3)])
def test_batch_matmul_over_data_dependent_sizes_that_may_be_zero(rows, cols):
    # XNNPACK cannot prepare a BATCH_MATMUL with no rows or columns (TFLite prepares IF branches that
    # will not run, too): sizes named by an unbacked symbol (u0) are padded by one and cut off again
    dims = {"a": ["u0", 6], "b": ["u1", 6]}
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, d) for n, d in dims.items()]
    nodes = [
        helper.make_node("Transpose", ["b"], ["bt"], perm=[1, 0]),
        helper.make_node("MatMul", ["a", "bt"], ["y"]),
    ]
    graph = helper.make_graph(nodes, "test", inputs, [helper.make_empty_tensor_value_info("y")])
    model = onnx.shape_inference.infer_shapes(
        helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    )
    feeds = {
        "a": RNG.standard_normal((rows, 6)).astype(np.float32),
        "b": RNG.standard_normal((cols, 6)).astype(np.float32),
    }
    info = assert_matches(model, feeds)
    assert info["ops"]["BATCH_MATMUL"] == 1


def test_flatten_gemm_unflatten_becomes_one_fully_connected():
    """torch's Linear on 3-D input: Reshape -> Gemm -> Reshape lowers to one FULLY_CONNECTED (keep_num_dims)."""
    x = RNG.standard_normal((2, 5, 8)).astype(np.float32)
    consts = {"w": RNG.standard_normal((8, 6)).astype(np.float32), "b": RNG.standard_normal(6).astype(np.float32),
              "flat": np.array([-1, 8], np.int64), "back": np.array([2, 5, 6], np.int64)}  # fmt: skip
    nodes = [
        helper.make_node("Reshape", ["x", "flat"], ["f"]),
        helper.make_node("Gemm", ["f", "w", "b"], ["g"]),
        helper.make_node("Reshape", ["g", "back"], ["y"]),
    ]
    info = assert_matches(graph_model(nodes, {"x": x}, ["y"], consts), {"x": x})
    assert info["ops"] == {"FULLY_CONNECTED": 1}


@pytest.mark.parametrize("vector_first", [False, True])
def test_matrix_vector_product_over_dynamic_sizes(tmp_path, vector_first):
    """`adj @ v` / `v @ w` where the sizes are known only at run time."""
    import onnx
    from onnx import helper as onnx_helper

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.helpers import reference

    matrix = onnx_helper.make_tensor_value_info("m", onnx.TensorProto.FLOAT, ["n", "n"])
    vector = onnx_helper.make_tensor_value_info("v", onnx.TensorProto.FLOAT, ["n"])
    inputs = ["v", "m"] if vector_first else ["m", "v"]
    graph = onnx_helper.make_graph(
        [onnx_helper.make_node("MatMul", inputs, ["y"])],
        "matvec",
        [matrix, vector],
        [onnx_helper.make_empty_tensor_value_info("y")],
    )
    model = onnx_helper.make_model(graph, opset_imports=[onnx_helper.make_opsetid("", 20)])
    session = load(emit_tflite(model, tmp_path / "matvec.tflite")["path"])
    rng = np.random.default_rng(0)
    for n in (1, 3, 8):
        m = rng.standard_normal((n, n)).astype(np.float32)
        v = rng.standard_normal(n).astype(np.float32)
        (actual,) = session.run([m, v])
        np.testing.assert_allclose(actual, reference(model, {"m": m, "v": v})[0], rtol=1e-5, atol=1e-5)


def test_dot_product_of_two_dynamic_vectors(tmp_path):
    """`v @ w` of two 1-D operands whose length is known only at run time (a Rayleigh quotient's
    `v @ (adj @ v)`): a 0-d result."""
    import onnx
    from onnx import helper as onnx_helper

    from deploy.runtimes.tflite.emit import emit_tflite
    from deploy.runtimes.tflite.session import load
    from tests.runtimes.tflite.helpers import reference

    vectors = [onnx_helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, ["n"]) for n in ("v", "w")]
    graph = onnx_helper.make_graph(
        [onnx_helper.make_node("MatMul", ["v", "w"], ["y"])],
        "dot",
        vectors,
        [onnx_helper.make_empty_tensor_value_info("y")],
    )
    model = onnx_helper.make_model(graph, opset_imports=[onnx_helper.make_opsetid("", 20)])
    session = load(emit_tflite(model, tmp_path / "dot.tflite")["path"])
    rng = np.random.default_rng(1)
    for n in (1, 4, 33):
        v, w = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        (actual,) = session.run([v, w])
        expected = reference(model, {"v": v, "w": w})[0]
        assert actual.shape == expected.shape == ()
        np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)
