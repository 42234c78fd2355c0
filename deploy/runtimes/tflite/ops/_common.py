"""Helpers shared by the lowerings: attributes, output specs, and layout-aware broadcasting."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx_ir as ir

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext, ir_dtype, ir_shape
from deploy.runtimes.tflite.values import Shape, Unsupported, Value, is_identity


def attr(node: ir.Node, name: str, default=None):
    """The python value of attribute ``name`` (str for strings, list for lists)."""
    found = node.attributes.get(name)
    if found is None:
        return default
    value = found.value
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, tuple):
        return list(value)
    return value


def out_shape(node: ir.Node, i: int = 0) -> Shape | None:
    return ir_shape(node.outputs[i])


def out_dtype(node: ir.Node, i: int = 0) -> np.dtype:
    return ir_dtype(node.outputs[i])


def norm_axis(axis: int, rank: int) -> int:
    if not -rank <= axis < max(rank, 1):
        raise Unsupported(f"axis {axis} out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def broadcast_shape(shapes: Sequence[Shape | None]) -> Shape | None:
    """Numpy broadcasting of ONNX shapes (None dims stay None unless the other side is > 1)."""
    if any(s is None for s in shapes):
        return None
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = [s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0]
        known = [d for d in dims if d is not None and d != 1]
        if known:
            out.append(known[0])
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def pick_layout(values: Sequence[Value], rank: int | None) -> tuple[int, ...] | None:
    """The layout an elementwise op should run in: that of its first laid-out full-rank input."""
    for v in values:
        if v.const is None and v.rank == rank and not is_identity(v.perm):
            return v.perm
    return None


def aligned(
    ctx: LoweringContext, values: Sequence[Value], rank: int | None
) -> tuple[list[int], tuple | None]:
    """Tensors for an elementwise op over ``values``, all in one layout, and that layout. A dynamic
    lower-rank operand cannot be given leading ones statically: then the op runs in native layout."""
    perm = pick_layout(values, rank)
    if perm is not None and any(v.rank < rank and v.const is None and not v.static for v in values):
        perm = None
    tensors = []
    for v in values:
        if perm is None:
            tensors.append(ctx.native(v))
            continue
        if v.rank < rank:
            if v.const is not None:
                v = ctx.const(v.const.reshape((1,) * (rank - v.rank) + v.const.shape))
            else:
                v = ctx.reshape(v, (1,) * (rank - v.rank) + tuple(v.shape))
        if v.const is not None and v.const.size == 1:
            tensors.append(ctx.tensor(v))
        else:
            tensors.append(ctx.tensor(v, perm))
    return tensors, perm


def elementwise(
    ctx: LoweringContext, code: int, node: ir.Node, inputs: Sequence[Value], options=None, dtype=None
):
    """Emit one elementwise TFLite op over ``inputs`` with numpy broadcasting, keeping layout."""
    shape = out_shape(node)
    if shape is None:
        shape = broadcast_shape([v.shape for v in inputs])
    rank = None if shape is None else len(shape)
    tensors, perm = aligned(ctx, inputs, rank)
    return ctx.emit(code, tensors, shape, dtype or out_dtype(node), perm=perm, options=options)


def elementwise_values(ctx, code, a: Value, b: Value, dtype=None, options=None) -> Value:
    """An elementwise op between two lowered values (no ONNX node: used by decompositions)."""
    shape = broadcast_shape([a.shape, b.shape])
    rank = None if shape is None else len(shape)
    tensors, perm = aligned(ctx, [a, b], rank)
    return ctx.emit(code, tensors, shape, dtype or a.dtype, perm=perm, options=options)


NONNEGATIVE = {OPS.RELU, OPS.RELU6, OPS.LOGISTIC, OPS.EXP, OPS.ABS, OPS.SQRT, OPS.SQUARE}


def unary_values(ctx, code, a: Value, options=None, dtype=None) -> Value:
    result = ctx.emit(code, [ctx.tensor(a, a.perm)], a.shape, dtype or a.dtype, perm=a.perm, options=options)
    result.nonnegative = code in NONNEGATIVE
    return result


def scalar(ctx: LoweringContext, number, dtype) -> Value:
    return ctx.const(np.array(number, dtype=dtype))
