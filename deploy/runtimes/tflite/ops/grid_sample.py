"""GridSample (2-D and volumetric): sampling taps computed at run time, one batched GATHER per tap.

Follows the ONNX reference: grid coordinates are denormalised per align_corners,
rounded half-to-even for nearest, moved inside the border (clamp or reflect) when
outside it; each tap index is then padded per dim (zero, clamp or reflect) and the
value is the tap-weighted sum of X gathered at the flattened spatial index.

X's spatial sizes may be known only at run time (an image of any size sampled on a fixed grid, as an
iris unwrap does): they are then read from X's shape, and the formulas take them as tensors.
"""

from __future__ import annotations

import itertools

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, unary_values
from deploy.runtimes.tflite.ops._expr import Expr
from deploy.runtimes.tflite.ops.resize_runtime import cubic_weights
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, channels_last

F32 = np.float32


def reflect(e: Expr, v: Value, low: float, high: float) -> Value:
    """Reflect ``v`` by the nearer border until it lies in [low, high] (the reference's _gs_reflect)."""
    span = _minus(e, high, low)

    def fold(distance: Value, near: float, far: float, toward: float) -> Value:
        turns = unary_values(e.ctx, OPS.FLOOR, e.div(distance, span))
        rest = e.sub(distance, e.mul(turns, span))
        even = e.op(OPS.EQUAL, e.op(OPS.FLOOR_MOD, turns, 2.0), 0.0, np.bool_)
        return e.select(even, e.add(near, e.mul(rest, toward)), e.sub(far, e.mul(rest, toward)))

    below = fold(e.sub(low, v), low, high, 1.0)
    above = fold(e.sub(v, high), high, low, -1.0)
    above = e.select(e.op(OPS.GREATER, v, high, np.bool_), above, v)
    return e.select(e.op(OPS.LESS, v, low, np.bool_), below, above)


def tap_index(e: Expr, index: Value, size, padding: str, low, high) -> tuple[Value, Value | None]:
    """(index in range as float, validity mask for zero padding) of an integer tap position;
    ``size`` (and ``low``, ``high``) a number or a run-time scalar."""
    last = _minus(e, size, 1.0)
    if padding == "zeros":
        valid = e.op(OPS.LOGICAL_AND, e.op(OPS.GREATER_EQUAL, index, 0.0, np.bool_),
                     e.op(OPS.LESS_EQUAL, index, last, np.bool_), np.bool_)  # fmt: skip
    else:
        valid = None
    if padding == "reflection":
        index = e.ctx.cast(e.ctx.cast(reflect(e, index, low, high), np.int32), F32)  # int() truncates
    clamped = e.op(OPS.MINIMUM, e.op(OPS.MAXIMUM, index, 0.0), last)
    return clamped, valid


def _minus(e: Expr, a, b):
    """``a - b`` for numbers, a SUB when either is a run-time value."""
    return e.sub(a, b) if isinstance(a, Value) or isinstance(b, Value) else a - b


def _times(e: Expr, a, b):
    return e.mul(a, b) if isinstance(a, Value) or isinstance(b, Value) else a * b


def spatial_size(ctx: LoweringContext, x: Value, axis: int):
    """X's size on ``axis`` as a float: a number when static, else a 0-d float read from its shape."""
    if x.shape[axis] is not None:
        return float(x.shape[axis])
    options = schema.GatherOptionsT()
    options.axis = 0
    dims = ctx.shape_of(x, "int32")
    size = ctx.emit(OPS.GATHER, [ctx.native(dims), ctx.int32_tensor(np.array(axis, np.int32))], (), np.int32,
                    options=options)  # fmt: skip
    return ctx.cast(size, F32)


def axis_taps(e: Expr, grid_part: Value, size, mode: str, padding: str, align: bool) -> list:
    """[(index, validity, weight)] of the taps along one spatial dim, from its normalised coordinate;
    ``size`` a number or a run-time scalar (spatial_size)."""
    ctx = e.ctx
    last = _minus(e, size, 1.0)
    if align:
        coord = e.mul(e.add(grid_part, 1.0), e.div(last, 2.0) if isinstance(last, Value) else last / 2.0)
    else:
        coord = e.div(e.sub(e.mul(e.add(grid_part, 1.0), size), 1.0), 2.0)
    low, high = (0.0, last) if align else (-0.5, _minus(e, size, 0.5))
    if mode == "nearest":
        coord = unary_values(ctx, OPS.ROUND, coord)
    outside = e.op(OPS.LOGICAL_OR, e.op(OPS.LESS, coord, low, np.bool_), e.op(OPS.GREATER, coord, high, np.bool_),
                   np.bool_)  # fmt: skip
    if padding == "border":
        coord = e.select(outside, e.op(OPS.MINIMUM, e.op(OPS.MAXIMUM, coord, 0.0), last), coord)
    elif padding == "reflection":
        coord = e.select(outside, reflect(e, coord, low, high), coord)
    if mode == "nearest":
        taps = [(coord, None)]
    else:
        base = unary_values(ctx, OPS.FLOOR, coord)
        t = e.sub(coord, base)
        if mode == "linear":
            offsets, weights = [0, 1], [e.sub(1.0, t), t]
        else:
            offsets, weights = [-1, 0, 1, 2], cubic_weights(e, t, -0.75)
        taps = [(e.add(base, float(o)), w) for o, w in zip(offsets, weights)]
    return [(*tap_index(e, index, size, padding, low, high), w) for index, w in taps]


def weighted_sum(
    e: Expr, source: int, taps_per_dim: list, strides: list, n: int, points: int, c: int
) -> Value:
    """Sum over all tap combinations of weight * X[flat index] (a batched GATHER each)."""
    ctx, total = e.ctx, None
    for combo in itertools.product(*taps_per_dim):
        flat, weight, valid = None, None, None
        for (index, ok, w), stride in zip(combo, strides):
            part = e.mul(index, stride if isinstance(stride, Value) else float(stride))
            flat = part if flat is None else e.add(flat, part)
            if w is not None:
                weight = w if weight is None else e.mul(weight, w)
            if ok is not None:
                valid = ok if valid is None else e.op(OPS.LOGICAL_AND, valid, ok, np.bool_)
        if valid is not None:
            weight = e.select(valid, weight if weight is not None else 1.0, 0.0)
        options = schema.GatherOptionsT()
        options.axis, options.batchDims = 1, 1
        picked = ctx.emit(OPS.GATHER, [source, ctx.native(ctx.cast(flat, np.int32))], (n, points, c), F32,
                          options=options)  # fmt: skip
        if weight is not None:
            picked = e.mul(picked, ctx.reshape(weight, (n, points, 1)))
        total = picked if total is None else e.add(total, picked)
    return total


@lower("GridSample")
def lower_grid_sample(ctx: LoweringContext, node: ir.Node) -> Value:
    """GridSample(X, grid, mode, padding_mode, align_corners) on a static grid (X's spatial sizes
    may be dynamic)."""
    x, grid = ctx.input(node, 0), ctx.input(node, 1)
    if not grid.static or x.shape is None or any(d is None for d in x.shape[:2]) or x.dtype != F32:
        raise Unsupported("GridSample needs a static grid, static batch and channels, float32")
    mode, padding = attr(node, "mode", "linear"), attr(node, "padding_mode", "zeros")
    mode = {"bilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    k = x.rank - 2
    if mode == "cubic" and k != 2:
        raise Unsupported("GridSample cubic beyond 2-D")
    dims = [spatial_size(ctx, x, 2 + i) for i in range(k)]
    n, c = x.shape[:2]
    points = int(np.prod(grid.shape[1:-1]))
    e = Expr(ctx)
    flat_grid = ctx.reshape(grid, (n, points, k))
    taps_per_dim = []
    for i, size in enumerate(dims):
        options = schema.GatherOptionsT()
        options.axis = 2
        part = ctx.emit(OPS.GATHER, [ctx.native(flat_grid), ctx.int32_tensor(np.array(k - 1 - i))], (n, points), F32,
                        options=options)  # fmt: skip
        taps_per_dim.append(axis_taps(e, part, size, mode, padding, bool(attr(node, "align_corners", 0))))
    strides = [1.0] * k
    for i in range(k - 2, -1, -1):
        strides[i] = _times(e, strides[i + 1], dims[i + 1])
    spatial = None if any(isinstance(d, Value) for d in dims) else int(np.prod(dims))
    source = ctx.tensor(ctx.reshape(x, (n, c, spatial)), (0, 2, 1))
    total = weighted_sum(e, source, taps_per_dim, strides, n, points, c)
    out_dims = tuple(grid.shape[1:-1])
    result = ctx.reshape_tensor(ctx.native(total), (n, *out_dims, c), F32)
    return Value(ctx.sg.tensors[result].name, (n, c, *out_dims), np.dtype(F32), tensor=result,
                 perm=channels_last(2 + len(out_dims)))  # fmt: skip
