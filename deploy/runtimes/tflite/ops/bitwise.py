"""Bitwise lowerings: BitwiseAnd/Or/Xor/Not, and the uint64 values they (and BitShift) work on.

TFLite has BITWISE_XOR and RIGHT_SHIFT for 32-bit integers only, and no uint64 tensors.
torch.onnx writes an int64 ``a << b`` as Cast(uint64) -> BitShift -> Cast(int64), so a
uint64 value is carried as the int64 with the same bits (a Cast between them is free),
which is exact for every op that only looks at bits (checked before the first Cast).
An int64 is split into its two int32 halves by BITCAST ([..., 2], low half first);
AND and OR are built from XOR and integer arithmetic on the halves:
a + b = (a ^ b) + 2 (a & b), and a | b = (a ^ b) + (a & b) (disjoint bits, no carries).
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, broadcast_shape, elementwise_values, scalar
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

I32 = np.dtype(np.int32)
I64 = np.dtype(np.int64)

# ops whose result on a uint64 carried as int64 bits is the right bits (comparisons for equality only)
_BITS_ONLY = {"BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "Identity", "Add", "Sub", "Mul",
              "Equal", "Cast"}  # fmt: skip


def check_uint64_uses(value: ir.Value) -> None:
    """Raise Unsupported unless every use of the uint64 ``value`` (and of the uint64 values
    computed from it) only needs its bits, so that int64 storage gives the same answers."""
    pending, seen = [value], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        for use in current.uses():
            node = use.node if hasattr(use, "node") else use[0]
            if node.op_type not in _BITS_ONLY:
                raise Unsupported(f"uint64 value used by {node.op_type} (TFLite has no uint64 tensors)")
            if node.op_type == "Cast" and attr(node, "to") not in (ir.DataType.INT64, ir.DataType.UINT64):
                raise Unsupported("Cast of a uint64 value to a type other than int64")
            pending.extend(out for out in node.outputs if out.dtype == ir.DataType.UINT64)


def signed(ctx: LoweringContext, value: Value) -> Value:
    """A uint64 constant as the int64 with the same bits (computed uint64 values already are)."""
    if value.const is not None and value.dtype == np.uint64:
        return ctx.const(np.ascontiguousarray(value.const).view(np.int64))
    if value.dtype == np.uint64:
        raise Unsupported("a uint64 tensor that is not a constant")
    return value


def bitcast(ctx: LoweringContext, value: Value, dtype, shape) -> Value:
    if value.const is not None:
        return ctx.const(np.ascontiguousarray(value.const).view(dtype).reshape(shape))
    return ctx.emit(OPS.BITCAST, [ctx.native(value)], shape, dtype, options=schema.BitcastOptionsT())


def halves(ctx: LoweringContext, value: Value) -> Value:
    if value.shape is None:
        raise Unsupported("bitwise op on a tensor of unknown rank")
    return bitcast(ctx, value, I32, (*value.shape, 2))


def select(ctx: LoweringContext, cond: Value, a: Value, b: Value) -> Value:
    shape = broadcast_shape([cond.shape, a.shape, b.shape])
    return ctx.emit(OPS.SELECT_V2, [ctx.native(v) for v in (cond, a, b)], shape, a.dtype)


def less(ctx, a: Value, number) -> Value:
    return elementwise_values(ctx, OPS.LESS, a, scalar(ctx, number, a.dtype), dtype=np.bool_)


def _xor32(ctx, a: Value, b: Value) -> Value:
    return elementwise_values(ctx, OPS.BITWISE_XOR, a, b)


def _and32(ctx, a: Value, b: Value) -> Value:
    """a & b of int32s: (a + b - (a ^ b)) >> 1 has the right low 31 bits; bit 31 is set when
    both signs are."""
    twice = elementwise_values(ctx, OPS.SUB, elementwise_values(ctx, OPS.ADD, a, b), _xor32(ctx, a, b))
    low = elementwise_values(ctx, OPS.RIGHT_SHIFT, twice, scalar(ctx, 1, I32))
    both_negative = elementwise_values(ctx, OPS.LOGICAL_AND, less(ctx, a, 0), less(ctx, b, 0), dtype=np.bool_)
    wrong_sign = elementwise_values(ctx, OPS.NOT_EQUAL, less(ctx, low, 0), both_negative, dtype=np.bool_)
    return select(ctx, wrong_sign, _xor32(ctx, low, scalar(ctx, np.iinfo(np.int32).min, I32)), low)


def _or32(ctx, a: Value, b: Value) -> Value:
    return elementwise_values(ctx, OPS.ADD, _xor32(ctx, a, b), _and32(ctx, a, b))


_BINARY = {"BitwiseAnd": _and32, "BitwiseOr": _or32, "BitwiseXor": _xor32}


@lower(*_BINARY)
def lower_bitwise(ctx: LoweringContext, node: ir.Node) -> Value:
    """AND / OR / XOR: on 32-bit halves for int64, widened to int32 for narrower integers."""
    a, b = (signed(ctx, ctx.input(node, i)) for i in range(2))
    combine = _BINARY[node.op_type]
    if a.dtype == I64:
        pairs = combine(ctx, halves(ctx, a), halves(ctx, ctx.cast(b, I64)))
        return bitcast(ctx, pairs, I64, pairs.shape[:-1])
    if a.dtype == np.uint32:
        whole = combine(ctx, *(bitcast(ctx, v, I32, v.shape) for v in (a, b)))
        return bitcast(ctx, whole, np.uint32, whole.shape)
    if a.dtype not in (I32, np.int16, np.int8, np.uint8, np.uint16):
        raise Unsupported(f"{node.op_type} of {a.dtype}")
    # sign- or zero-extended operands give the narrow result's bits in the low bits
    return ctx.cast(combine(ctx, ctx.cast(a, I32), ctx.cast(b, I32)), a.dtype)


@lower("BitwiseNot")
def lower_bitwise_not(ctx: LoweringContext, node: ir.Node) -> Value:
    """~x as (all ones) - x, exact (no borrows) for signed and unsigned integers."""
    x = signed(ctx, ctx.input(node, 0))
    if not np.issubdtype(x.dtype, np.integer):
        raise Unsupported(f"BitwiseNot of {x.dtype}")
    ones = -1 if np.issubdtype(x.dtype, np.signedinteger) else np.iinfo(x.dtype).max
    if x.dtype in (np.uint8, np.int8, np.int16, np.uint16):
        return ctx.cast(elementwise_values(ctx, OPS.SUB, scalar(ctx, ones, I32), ctx.cast(x, I32)), x.dtype)
    return elementwise_values(ctx, OPS.SUB, scalar(ctx, ones, x.dtype), x)
