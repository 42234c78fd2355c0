"""Bit-exact tests of the bitwise lowerings: AND/OR/XOR/NOT and shifts on the integer widths
torch.onnx writes (int64 through uint64 casts), including signs, the top bit and shift limits."""

import numpy as np
import pytest
from onnx import TensorProto, helper

from deploy.runtimes.tflite.lowering import UnsupportedOpError
from tests.runtimes.tflite.helpers import assert_matches, graph_model, lower_and_run, reference

EDGES64 = [
    0,
    1,
    -1,
    5,
    -3,
    1 << 40,
    -(1 << 50) - 7,
    2**63 - 1,
    -(2**63),
    0x5555_5555_5555_5555,
    -0x3333_3333_3333_3333,
]
A64 = np.array(EDGES64, np.int64).reshape(1, -1)
B64 = np.roll(A64, 3, axis=1).reshape(-1, 1)  # every pair of edge values, by broadcasting
A32 = np.array([0, 1, -1, 7, -8, 2**31 - 1, -(2**31), 0x5555_5555, -0x3333_3333], np.int32).reshape(1, -1)
B32 = np.roll(A32, 2, axis=1).reshape(-1, 1)


@pytest.mark.parametrize("op", ["BitwiseAnd", "BitwiseOr", "BitwiseXor"])
@pytest.mark.parametrize(
    "a, b", [(A64, B64), (A32, B32), (A64, np.array(0xFF, np.int64))], ids=["i64", "i32", "mask"]
)
def test_binary_bitwise_is_bit_exact(op, a, b):
    model = graph_model([helper.make_node(op, ["a", "b"], ["y"])], {"a": a, "b": b}, ["y"])
    assert_matches(model, {"a": a, "b": b}, rtol=0, atol=0)


@pytest.mark.parametrize("op", ["BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"])
def test_bytes(op):
    a = np.arange(0, 256, 7, dtype=np.uint8).reshape(1, -1)
    b = ((a.astype(np.int32) * 37 + 11) % 256).astype(np.uint8)
    names = ["a"] if op == "BitwiseNot" else ["a", "b"]
    feeds = {"a": a} if op == "BitwiseNot" else {"a": a, "b": b}
    model = graph_model([helper.make_node(op, names, ["y"])], feeds, ["y"])
    assert_matches(model, feeds, rtol=0, atol=0)


@pytest.mark.parametrize("x", [A64, A32], ids=["i64", "i32"])
def test_not(x):
    model = graph_model([helper.make_node("BitwiseNot", ["x"], ["y"])], {"x": x}, ["y"])
    assert_matches(model, {"x": x}, rtol=0, atol=0)


@pytest.mark.parametrize("direction", ["LEFT", "RIGHT"])
def test_int64_shift_through_uint64_casts(direction):
    """torch.onnx's int64 a << b: Cast(uint64) -> BitShift -> Cast(int64); amounts 0..70
    (64 and more give 0) against values with the top bit set."""
    x = A64.reshape(-1, 1)
    amounts = np.arange(0, 71, dtype=np.int64).reshape(1, -1)
    nodes = [
        helper.make_node("Cast", ["x"], ["xu"], to=TensorProto.UINT64),
        helper.make_node("Cast", ["s"], ["su"], to=TensorProto.UINT64),
        helper.make_node("BitShift", ["xu", "su"], ["yu"], direction=direction),
        helper.make_node("Cast", ["yu"], ["y"], to=TensorProto.INT64),
    ]
    model = graph_model(nodes, {"x": x, "s": amounts}, ["y"])
    assert_matches(model, {"x": x, "s": amounts}, rtol=0, atol=0)


def _numpy_shift(x: np.ndarray, amounts: np.ndarray, direction: str) -> np.ndarray:
    """ONNX BitShift (opset 28: signed right shifts are arithmetic) in numpy, for the signed
    types onnxruntime does not run yet."""
    bits = np.iinfo(x.dtype).bits
    x, amounts = np.broadcast_arrays(x, amounts)
    inside = (amounts >= 0) & (amounts < bits)
    safe = np.where(inside, amounts, 0)
    if direction == "LEFT":
        unsigned = x.astype(f"uint{bits}") << safe.astype(f"uint{bits}")
        return np.where(inside, unsigned.view(x.dtype), 0).astype(x.dtype)
    fill = np.where(x < 0, -1, 0) if np.iinfo(x.dtype).min < 0 else np.zeros_like(x)
    return np.where(inside, x >> safe.astype(x.dtype), fill).astype(x.dtype)


@pytest.mark.parametrize("direction", ["LEFT", "RIGHT"])
@pytest.mark.parametrize("dtype", [np.uint8, np.uint32, np.int8, np.int32, np.int64])
def test_shifts_of_every_width(direction, dtype):
    """Signed right shifts fill with the sign (-1 past the width); amounts from -2 to width + 2."""
    info = np.iinfo(dtype)
    x = np.array([0, 1, 3, 0x5A, info.max, info.max // 3, info.min, info.min // 3 - 1], np.int64)
    x = x.astype(dtype).reshape(-1, 1)
    amounts = np.arange(-2 if info.min < 0 else 0, info.bits + 3).astype(dtype).reshape(1, -1)
    model = graph_model([helper.make_node("BitShift", ["x", "s"], ["y"], direction=direction)],
                        {"x": x, "s": amounts}, ["y"], opset=28)  # fmt: skip
    (actual,), _ = lower_and_run(model, {"x": x, "s": amounts})
    np.testing.assert_array_equal(actual, _numpy_shift(x, amounts, direction))
    if info.min == 0:  # onnxruntime agrees where it runs
        np.testing.assert_array_equal(actual, reference(model, {"x": x, "s": amounts})[0])


def test_uint64_compared_by_size_is_refused():
    """Less on a uint64 would compare int64 storage by sign: refused before anything is written."""
    nodes = [
        helper.make_node("Cast", ["x"], ["xu"], to=TensorProto.UINT64),
        helper.make_node("Less", ["xu", "xu"], ["y"]),
    ]
    model = graph_model(nodes, {"x": A64}, ["y"])
    with pytest.raises(UnsupportedOpError, match="uint64 value used by Less"):
        lower_and_run(model, {"x": A64})
