"""Numeric tests of the elementwise lowerings (unary, binary with broadcasting, logic, Where, Clip)."""

import numpy as np
import pytest
from onnx import helper

from tests.runtimes.tflite.helpers import assert_matches, graph_model

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 4)).astype(np.float32)


@pytest.mark.parametrize(
    "op",
    [
        "Relu",
        "Sigmoid",
        "Tanh",
        "Exp",
        "Neg",
        "Abs",
        "Floor",
        "Ceil",
        "Sin",
        "Cos",
        "Erf",
        "Gelu",
        "Softplus",
        "Elu",
        "Selu",
        "HardSigmoid",
        "HardSwish",
        "Mish",
        "Sign",
        "Atan",
        "Reciprocal",
    ],  # fmt: skip
)
def test_unary(op):
    model = graph_model([helper.make_node(op, ["x"], ["y"])], {"x": X}, ["y"])
    assert_matches(model, {"x": X}, rtol=1e-5, atol=2e-6)


@pytest.mark.parametrize("op", ["Asin", "Acos"])
def test_inverse_sine_cosine_near_one(op):
    """Angles from cosines near +-1 (a joint nearly straight): sqrt(1 - x^2) computed as
    sqrt((1 - x)(1 + x)) keeps the digits a float32 1 - x^2 would lose."""
    x = np.concatenate(
        [np.linspace(-1.0, 1.0, 41), 1.0 - np.geomspace(1e-7, 1e-3, 12), -1.0 + np.geomspace(1e-7, 1e-3, 12)]
    )
    x = x.astype(np.float32).reshape(5, 13)
    model = graph_model([helper.make_node(op, ["x"], ["y"])], {"x": x}, ["y"])
    assert_matches(model, {"x": x}, rtol=5e-7, atol=1e-8)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_abs(dtype):
    """TFLite's ABS has no int64 kernel: int64 goes through MAXIMUM(x, NEG(x))."""
    x = np.array([[-5, 0, 3], [7, -1, -(2**40) if dtype == np.int64 else -9]], dtype=dtype)
    model = graph_model([helper.make_node("Abs", ["x"], ["y"])], {"x": x}, ["y"])
    assert_matches(model, {"x": x}, rtol=0, atol=0)


@pytest.mark.parametrize("op", ["Sqrt", "Log"])
def test_unary_positive(op):
    x = np.abs(X) + 0.1
    assert_matches(graph_model([helper.make_node(op, ["x"], ["y"])], {"x": x}, ["y"]), {"x": x})


@pytest.mark.parametrize("op", ["Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"])
def test_binary_broadcast(op):
    a, b = np.abs(X) + 0.5, (np.abs(RNG.standard_normal((3, 1))) + 0.5).astype(np.float32)
    model = graph_model([helper.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, ["y"])
    assert_matches(model, {"a": a, "b": b})


@pytest.mark.parametrize("op", ["Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"])
def test_comparisons_int64(op):
    a, b = RNG.integers(0, 4, (3, 4)), RNG.integers(0, 4, (4,))
    model = graph_model([helper.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, ["y"])
    assert_matches(model, {"a": a, "b": b})


@pytest.mark.parametrize("op", ["And", "Or", "Xor"])
def test_logic(op):
    a, b = RNG.random((3, 4)) > 0.5, RNG.random((3, 4)) > 0.5
    nodes = [helper.make_node(op, ["a", "b"], ["c"]), helper.make_node("Not", ["c"], ["y"])]
    assert_matches(graph_model(nodes, {"a": a, "b": b}, ["y"]), {"a": a, "b": b})


def test_where_and_integer_division():
    cond, a, b = RNG.random((3, 4)) > 0.5, RNG.integers(-9, 9, (3, 4)), RNG.integers(1, 4, (3, 4))
    nodes = [helper.make_node("Div", ["a", "b"], ["q"]), helper.make_node("Where", ["c", "q", "a"], ["y"])]
    assert_matches(graph_model(nodes, {"c": cond, "a": a, "b": b}, ["y"]), {"c": cond, "a": a, "b": b})


@pytest.mark.parametrize(
    ("low", "high", "expected_op"), [(0.0, 6.0, "RELU6"), (-1.0, 1.0, "RELU_N1_TO_1"), (-0.5, 0.3, "MINIMUM")]
)
def test_clip(low, high, expected_op):
    nodes = [helper.make_node("Clip", ["x", "lo", "hi"], ["y"])]
    model = graph_model(nodes, {"x": X * 4}, ["y"], {"lo": np.float32(low), "hi": np.float32(high)})
    info = assert_matches(model, {"x": X * 4})
    assert expected_op in info["ops"]


@pytest.mark.parametrize("op", ["Equal", "Less", "Greater", "Add", "Sub", "Mul"])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_byte_operands(op, dtype):
    """TFLite reads uint8/int8 operands of comparisons and arithmetic as quantized values and aborts
    the process when they have no quantization parameters (a uint8 mask compared with 0): they are
    computed in int32 (arithmetic wraps around as in numpy)."""
    a = np.array([[0, 1, 7], [100, 3, 120]], dtype=dtype)
    b = np.array([[0, 2, 7], [27, 1, 9]], dtype=dtype)
    model = graph_model([helper.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, ["y"])
    assert_matches(model, {"a": a, "b": b}, rtol=0, atol=0)


@pytest.mark.parametrize("op", ["Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"])
def test_float64_comparisons(op):
    """TFLite's comparisons have no float64 kernel ("Does not support type 11"); torch compares a
    tensor with a symbolic float (`flags.sum() > 0.5 * n`) in float64: compared in float32."""
    a = np.array([[0.5, 2.0, -3.0], [4.0, 1.25, 7.0]])
    b = np.array([2.0, 1.25, -4.0])
    model = graph_model([helper.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, ["y"])
    assert_matches(model, {"a": a, "b": b}, rtol=0, atol=0)
