"""Resize whose scales or sizes are inputs: coordinates computed at run time, then GATHERs.

Per resized axis: output positions y = RANGE(0, out), source coordinates from the
ONNX coordinate_transformation_mode, then nearest (one GATHER), linear (two) or cubic
(four taps) along that axis, with indices clamped (the reference pads with edges).
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, norm_axis, unary_values
from deploy.runtimes.tflite.ops._expr import F32, Expr
from deploy.runtimes.tflite.values import Unsupported, Value


def element(ctx: LoweringContext, vector: Value, i: int) -> Value:
    """vector[i] as a float32 scalar."""
    options = schema.GatherOptionsT()
    item = ctx.emit(
        OPS.GATHER, [ctx.native(vector), ctx.int32_tensor(np.array(i))], (), vector.dtype, options=options
    )
    return ctx.cast(item, F32)


def source_coordinates(e: Expr, node: ir.Node, y: Value, scale: Value, out: Value, size: int) -> Value:
    mode = attr(node, "coordinate_transformation_mode", "half_pixel")
    half = e.sub(e.div(e.add(y, 0.5), scale), 0.5)
    width = e.mul(scale, float(size))  # the reference's (fractional) output width
    one_wide = e.op(OPS.LESS, unary_values(e.ctx, OPS.ABS, e.sub(width, 1.0)), 1e-5, np.bool_)
    if mode == "half_pixel":
        return half
    if mode == "asymmetric":
        return e.div(y, scale)
    if mode == "pytorch_half_pixel":
        return e.select(one_wide, -0.5, half)
    if mode == "align_corners":
        stretched = e.div(e.mul(y, float(size - 1)), e.sub(width, 1.0))
        return e.select(one_wide, 0.0, stretched)
    if mode == "half_pixel_symmetric":
        adjustment = e.div(out, width)
        offset = e.mul(size / 2.0, e.sub(1.0, adjustment))
        return e.add(offset, half)
    raise Unsupported(f"Resize coordinate_transformation_mode {mode!r} with run-time scales/sizes")


def gather_at(ctx: LoweringContext, x: Value, index: Value, axis: int, size: int) -> Value:
    e = Expr(ctx)
    clamped = e.op(OPS.MINIMUM, e.op(OPS.MAXIMUM, index, 0.0), float(size - 1))
    options = schema.GatherOptionsT()
    options.axis = axis
    shape = tuple(None if i == axis else d for i, d in enumerate(x.shape))
    return ctx.emit(OPS.GATHER, [ctx.native(x), ctx.native(ctx.cast(clamped, np.int32))], shape, x.dtype,
                    options=options)  # fmt: skip


def along(ctx: LoweringContext, weights: Value, axis: int, rank: int) -> Value:
    """A [out] weight vector shaped to broadcast along ``axis``."""
    return ctx.reshape(weights, tuple(None if i == axis else 1 for i in range(rank)))


def cubic_weights(e: Expr, t: Value, a: float) -> list[Value]:
    def outer(s):  # ((A*s - 5A)*s + 8A)*s - 4A for 1 <= s <= 2
        return e.sub(e.mul(e.add(e.mul(e.sub(e.mul(s, a), 5 * a), s), 8 * a), s), 4 * a)

    def inner(s):  # ((A+2)*s - (A+3))*s*s + 1 for s <= 1
        return e.add(e.mul(e.mul(e.sub(e.mul(s, a + 2), a + 3), s), s), 1.0)

    return [outer(e.add(t, 1.0)), inner(t), inner(e.sub(1.0, t)), outer(e.sub(2.0, t))]


def resize_axis(ctx: LoweringContext, node: ir.Node, x: Value, axis: int, scale: Value, out: Value) -> Value:
    e = Expr(ctx)
    size = x.shape[axis]
    y = ctx.emit(OPS.RANGE, [ctx.native(e.v(0.0)), ctx.native(out), ctx.native(e.v(1.0))], (None,), F32)
    coord = source_coordinates(e, node, y, scale, out, size)
    mode = attr(node, "mode", "nearest")
    if mode == "nearest":
        rounding = attr(node, "nearest_mode", "round_prefer_floor")
        index = {"floor": lambda: unary_values(ctx, OPS.FLOOR, coord), "ceil": lambda: unary_values(ctx, OPS.CEIL, coord),
                 "round_prefer_floor": lambda: unary_values(ctx, OPS.CEIL, e.sub(coord, 0.5)),
                 "round_prefer_ceil": lambda: unary_values(ctx, OPS.FLOOR, e.add(coord, 0.5))}[rounding]()  # fmt: skip
        return gather_at(ctx, x, index, axis, size)
    base = unary_values(ctx, OPS.FLOOR, coord)
    t = e.sub(coord, base)
    if mode == "linear":
        taps, weights = [0, 1], [e.sub(1.0, t), t]
    elif mode == "cubic":
        taps, weights = [-1, 0, 1, 2], cubic_weights(e, t, attr(node, "cubic_coeff_a", -0.75))
    else:
        raise Unsupported(f"Resize mode {mode!r}")
    if attr(node, "exclude_outside", 0):
        inside = []
        for k, w in zip(taps, weights):
            position = e.add(base, float(k))
            ok = e.op(OPS.LOGICAL_AND, e.op(OPS.GREATER_EQUAL, position, 0.0, np.bool_),
                      e.op(OPS.LESS_EQUAL, position, float(size - 1), np.bool_), np.bool_)  # fmt: skip
            inside.append(e.select(ok, w, 0.0))
        total = inside[0]
        for w in inside[1:]:
            total = e.add(total, w)
        weights = [e.div(w, total) for w in inside]
    result = None
    for k, w in zip(taps, weights):
        term = e.mul(gather_at(ctx, x, e.add(base, float(k)), axis, size), along(ctx, w, axis, x.rank))
        result = term if result is None else e.add(result, term)
    return result


def runtime_resize(ctx: LoweringContext, node: ir.Node) -> Value:
    """Resize with run-time scales or sizes (static input shape, float32)."""
    x = ctx.input(node, 0)
    if not x.static or x.dtype != F32 or attr(node, "antialias", 0):
        raise Unsupported("Resize with run-time scales/sizes needs a static float32 input, no antialias")
    scales_v, sizes_v = ctx.input(node, 2), ctx.input(node, 3) if len(node.inputs) > 3 else None
    axes = [norm_axis(a, x.rank) for a in attr(node, "axes", list(range(x.rank)))]
    e = Expr(ctx)
    plans = []
    if sizes_v is not None and sizes_v.shape != (0,):
        factors = [e.div(element(ctx, sizes_v, i), float(x.shape[a])) for i, a in enumerate(axes)]
        policy = attr(node, "keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            chosen = factors[0]
            for f in factors[1:]:
                chosen = e.op(OPS.MINIMUM if policy == "not_larger" else OPS.MAXIMUM, chosen, f)
            factors = [chosen] * len(axes)
            outs = [unary_values(ctx, OPS.FLOOR, e.add(e.mul(chosen, float(x.shape[a])), 0.5)) for a in axes]
        else:
            outs = [element(ctx, sizes_v, i) for i in range(len(axes))]
        plans = list(zip(axes, factors, outs))
    elif scales_v is not None:
        for i, a in enumerate(axes):
            scale = element(ctx, scales_v, i)
            plans.append((a, scale, unary_values(ctx, OPS.FLOOR, e.mul(scale, float(x.shape[a])))))
    else:
        raise Unsupported("Resize without scales or sizes")
    result = x
    for axis, scale, out in plans:
        result = resize_axis(ctx, node, result, axis, scale, out)
    return result
