"""BitShift: x << y and x >> y on every integer width ONNX allows.

Left shifts are wrapping multiplications by 2^y (a table GATHER). Right shifts are TFLite's
RIGHT_SHIFT, which has 32-bit kernels only: arithmetic on int32, logical on uint32 (a
BITCAST), and an int64 is shifted on its two int32 halves. Amounts outside [0, width) give
what the sign fill alone gives: -1 for a right shift of a negative signed value, else 0.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, broadcast_shape, elementwise_values, scalar
from deploy.runtimes.tflite.ops.bitwise import I32, I64, bitcast, halves, less, select, signed
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

DT = ir.DataType
# ONNX type -> (bits, signed); a uint64 is carried as the int64 with the same bits
WIDTHS = {DT.UINT8: (8, False), DT.UINT16: (16, False), DT.UINT32: (32, False), DT.UINT64: (64, False),
          DT.INT8: (8, True), DT.INT16: (16, True), DT.INT32: (32, True), DT.INT64: (64, True)}  # fmt: skip


def _num(ctx, number) -> Value:
    return scalar(ctx, number, I32)


def _powers(ctx: LoweringContext, width: int, dtype) -> Value:
    """2^k for k in [0, width) with the bits of an unsigned integer of ``width``, then 0 at ``width``."""
    table = np.append(np.ones(width, np.uint64) << np.arange(width, dtype=np.uint64), np.uint64(0))
    return ctx.const(table.astype(np.uint32 if width == 32 else np.uint64).view(dtype))


def _shift_left(ctx, x: Value, amount: Value, width: int) -> Value:
    """x << amount (amount in [0, width]; width gives 0) as a wrapping multiplication."""
    index = ctx.cast(amount, I32)
    table = _powers(ctx, width, x.dtype)
    factor = ctx.emit(OPS.GATHER, [ctx.native(table), ctx.native(index)], index.shape, x.dtype,
                      options=schema.GatherOptionsT())  # fmt: skip
    return elementwise_values(ctx, OPS.MUL, x, factor)


def _shift_right32(ctx, x: Value, amount: Value, arithmetic: bool) -> Value:
    """x >> amount of int32 bits, amount in [0, 31]: RIGHT_SHIFT on int32, or on uint32 (logical)."""
    if arithmetic:
        return elementwise_values(ctx, OPS.RIGHT_SHIFT, x, ctx.cast(amount, I32))
    unsigned = bitcast(ctx, x, np.uint32, x.shape)
    shifted = elementwise_values(
        ctx, OPS.RIGHT_SHIFT, unsigned, bitcast(ctx, amount, np.uint32, amount.shape)
    )
    return bitcast(ctx, shifted, I32, shifted.shape)


def _unpack(ctx: LoweringContext, pairs: Value) -> list[Value]:
    options = schema.UnpackOptionsT()
    options.num, options.axis = 2, len(pairs.shape) - 1
    return ctx.emit_multi(OPS.UNPACK, [ctx.native(pairs)], [(pairs.shape[:-1], I32)] * 2, options=options)


def _pack(ctx: LoweringContext, low: Value, high: Value) -> Value:
    """The int64 whose int32 halves are ``low`` and ``high`` (broadcast to one shape)."""
    shape = broadcast_shape([low.shape, high.shape])
    target = ctx.const(np.array([1 if d is None else d for d in shape], I32))
    if None in shape:
        target = ctx.emit(OPS.BROADCAST_ARGS, [ctx.native(ctx.shape_of(low, "int32")),
                                               ctx.native(ctx.shape_of(high, "int32"))], (len(shape),), I32)  # fmt: skip
    low, high = (v if v.shape == shape else ctx.emit(OPS.BROADCAST_TO, [ctx.native(v), ctx.native(target)], shape, I32)
                 for v in (low, high))  # fmt: skip
    options = schema.PackOptionsT()
    options.valuesCount, options.axis = 2, len(shape)
    pairs = ctx.emit(OPS.PACK, [ctx.native(low), ctx.native(high)], (*shape, 2), I32, options=options)
    return bitcast(ctx, pairs, I64, shape)


def _shift_right64(ctx, x: Value, amount: Value, arithmetic: bool) -> Value:
    """x >> amount of int64 bits (amount in [0, 63]) on the int32 halves."""
    low, high = _unpack(ctx, halves(ctx, x))
    small = elementwise_values(ctx, OPS.MINIMUM, amount, _num(ctx, 31))
    carried = _shift_left(
        ctx, high, elementwise_values(ctx, OPS.SUB, _num(ctx, 32), small), 32
    )  # 0 at amount 0
    low_small = elementwise_values(
        ctx, OPS.ADD, _shift_right32(ctx, low, small, False), carried
    )  # disjoint bits
    big = elementwise_values(
        ctx, OPS.MAXIMUM, elementwise_values(ctx, OPS.SUB, amount, _num(ctx, 32)), _num(ctx, 0)
    )
    is_small = less(ctx, amount, 32)
    new_low = select(ctx, is_small, low_small, _shift_right32(ctx, high, big, arithmetic))
    fill = _shift_right32(ctx, high, _num(ctx, 31), True) if arithmetic else _num(ctx, 0)
    new_high = select(ctx, is_small, _shift_right32(ctx, high, small, arithmetic), fill)
    return _pack(ctx, new_low, new_high)


def _wrap(ctx, value: Value, width: int, is_signed: bool) -> Value:
    """An int32 reduced to ``width`` bits (two's complement when signed)."""
    half = 1 << (width - 1) if is_signed else 0
    shifted = elementwise_values(ctx, OPS.ADD, value, _num(ctx, half))
    return elementwise_values(ctx, OPS.SUB, elementwise_values(ctx, OPS.FLOOR_MOD, shifted, _num(ctx, 1 << width)),
                              _num(ctx, half))  # fmt: skip


@lower("BitShift")
def lower_bit_shift(ctx: LoweringContext, node: ir.Node) -> Value:
    x, y = (signed(ctx, ctx.input(node, i)) for i in range(2))
    if node.inputs[0].dtype not in WIDTHS:
        raise Unsupported(f"BitShift of {node.inputs[0].dtype}")
    width, is_signed = WIDTHS[node.inputs[0].dtype]
    narrow = width < 32
    as_int32 = width == 32 and not is_signed
    work = ctx.cast(x, I32) if narrow else bitcast(ctx, x, I32, x.shape) if as_int32 else x
    # amounts compared in their own width: a huge unsigned amount reads as negative, so out of range
    y = bitcast(ctx, y, I32, y.shape) if as_int32 else ctx.cast(y, I32) if narrow else y
    in_range = elementwise_values(ctx, OPS.LOGICAL_AND, less(ctx, y, width),
                                  elementwise_values(ctx, OPS.GREATER_EQUAL, y, scalar(ctx, 0, y.dtype),
                                                     dtype=np.bool_), dtype=np.bool_)  # fmt: skip
    amount = elementwise_values(ctx, OPS.MINIMUM, elementwise_values(ctx, OPS.MAXIMUM, y, scalar(ctx, 0, y.dtype)),
                                scalar(ctx, width - 1, y.dtype))  # fmt: skip
    amount = ctx.cast(amount, I32)
    fill = scalar(ctx, 0, work.dtype)
    if attr(node, "direction") == "LEFT":
        shifted = _shift_left(ctx, work, amount, 32 if narrow else width)
        if narrow:
            shifted = _wrap(ctx, shifted, width, is_signed)
    else:
        shift = _shift_right64 if width == 64 else _shift_right32
        shifted = shift(ctx, work, amount, is_signed)
        if is_signed:
            fill = select(ctx, less(ctx, work, 0), scalar(ctx, -1, work.dtype), fill)
    result = select(ctx, in_range, shifted, fill)
    if narrow:
        return ctx.cast(result, x.dtype)
    return bitcast(ctx, result, np.uint32, result.shape) if as_int32 else result
