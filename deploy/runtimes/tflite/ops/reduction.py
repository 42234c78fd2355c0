"""Reductions (ReduceMean/Sum/Max/Min/Prod/L1/L2/LogSum/LogSumExp/SumSquare), ArgMax/ArgMin (int64
data through the first entry equal to its extreme: TFLite's ARG_MAX/ARG_MIN take no int64).

They run in the input's layout with remapped axes; without keepdims the layout shrinks.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, elementwise_values, norm_axis, out_shape, unary_values
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, ints

REDUCERS = {
    "ReduceMean": OPS.MEAN,
    "ReduceSum": OPS.SUM,
    "ReduceMax": OPS.REDUCE_MAX,
    "ReduceMin": OPS.REDUCE_MIN,
    "ReduceProd": OPS.REDUCE_PROD,
}


def reduce_axes(ctx: LoweringContext, node: ir.Node, rank: int) -> list[int] | None:
    """The normalised axes, or None for 'no reduction' (noop_with_empty_axes)."""
    axes = attr(node, "axes")
    given = ctx.input(node, 1) if len(node.inputs) > 1 else None
    if axes is None and given is not None:
        axes = [] if given.shape == (0,) else ints(given, "axes")
    if not axes:
        return None if attr(node, "noop_with_empty_axes", 0) else list(range(rank))
    return sorted({norm_axis(a, rank) for a in axes})


def reduce(
    ctx: LoweringContext, code: int, x: Value, axes: list[int] | Value, keepdims: bool, shape=None
) -> Value:
    """One TFLite reducer over ONNX ``axes`` of ``x`` in its own layout (``axes`` may be a run-time tensor)."""
    if x.dtype == np.bool_:
        code = {OPS.REDUCE_MAX: OPS.REDUCE_ANY, OPS.REDUCE_MIN: OPS.REDUCE_ALL}.get(code, code)
    if isinstance(axes, Value):
        options = schema.ReducerOptionsT()
        options.keepDims = keepdims
        if keepdims and shape is None:
            shape = tuple([None] * x.rank)
        axes_t = ctx.native(ctx.cast(axes, np.int32))
        return ctx.emit(code, [ctx.native(x), axes_t], shape, x.dtype, options=options)
    perm = x.perm or tuple(range(x.rank))
    options = schema.ReducerOptionsT()
    options.keepDims = keepdims
    tfl_axes = [perm.index(a) for a in axes]
    if keepdims:
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
        layout = x.perm
    else:
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        layout = tuple(p - sum(a < p for a in axes) for p in perm if p not in axes)
    if x.rank == 0:
        return x
    return ctx.emit(code, [ctx.tensor(x, x.perm), ctx.int32_tensor(tfl_axes)], shape, x.dtype, perm=layout,
                    options=options)  # fmt: skip


@lower(*REDUCERS, "ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp")
def lower_reduce(ctx: LoweringContext, node: ir.Node) -> Value:
    """Reduce<Op>(data, axes, keepdims, noop_with_empty_axes)."""
    x = ctx.input(node, 0)
    if x.rank is None:
        raise Unsupported("reduction of a tensor of unknown rank")
    keepdims = bool(attr(node, "keepdims", 1))
    op = node.op_type
    given = ctx.input(node, 1) if len(node.inputs) > 1 and "axes" not in node.attributes else None
    if given is not None and given.const is None and given.shape != (0,):
        return reduce_at_run_time(ctx, node, x, given, keepdims)
    axes = reduce_axes(ctx, node, x.rank)
    if axes is None:
        if op in ("ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp"):
            pre = {"ReduceL1": OPS.ABS, "ReduceSumSquare": OPS.SQUARE, "ReduceLogSumExp": None}.get(op)
            return unary_values(ctx, pre, x) if pre else x
        return x
    if any(x.shape[a] == 0 for a in axes):
        raise Unsupported("reduction over an empty axis")
    if op in REDUCERS:
        return reduce(ctx, REDUCERS[op], x, axes, keepdims)
    if op == "ReduceLogSumExp":
        peak = reduce(ctx, OPS.REDUCE_MAX, x, axes, True)
        shifted = ctx.emit(
            OPS.SUB, [ctx.tensor(x, x.perm), ctx.tensor(peak, x.perm)], x.shape, x.dtype, perm=x.perm
        )
        total = reduce(ctx, OPS.SUM, unary_values(ctx, OPS.EXP, shifted), axes, True)
        logged = unary_values(ctx, OPS.LOG, total)
        result = ctx.emit(
            OPS.ADD, [logged.tensor, ctx.tensor(peak, logged.perm)], logged.shape, x.dtype, perm=logged.perm
        )
        if keepdims:
            return result
        from deploy.runtimes.tflite.ops.shape_ops import reshape_to

        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
        if None in shape and sum(d is None for d in shape) > 1:
            raise Unsupported("ReduceLogSumExp without keepdims on several dynamic dims")
        return reshape_to(ctx, result, shape, [-1 if d is None else d for d in shape])
    pre = {"ReduceL1": OPS.ABS, "ReduceL2": OPS.SQUARE, "ReduceSumSquare": OPS.SQUARE}.get(op)
    source = unary_values(ctx, pre, x) if pre else x
    total = reduce(ctx, OPS.SUM, source, axes, keepdims)
    if op == "ReduceL2":
        if np.issubdtype(x.dtype, np.integer):
            return ctx.cast(unary_values(ctx, OPS.SQRT, ctx.cast(total, np.float32)), x.dtype)
        return unary_values(ctx, OPS.SQRT, total)
    if op == "ReduceLogSum":
        return unary_values(ctx, OPS.LOG, total)
    return total


def reduce_at_run_time(ctx: LoweringContext, node: ir.Node, x: Value, axes: Value, keepdims: bool) -> Value:
    """A reduction whose axes are computed at run time (TFLite reducers take an axes tensor)."""
    op = node.op_type
    shape = out_shape(node)
    if op == "ReduceLogSumExp":
        raise Unsupported("ReduceLogSumExp with run-time axes")
    if op in REDUCERS:
        return reduce(ctx, REDUCERS[op], x, axes, keepdims, shape)
    pre = {"ReduceL1": OPS.ABS, "ReduceL2": OPS.SQUARE, "ReduceSumSquare": OPS.SQUARE}.get(op)
    total = reduce(ctx, OPS.SUM, unary_values(ctx, pre, x) if pre else x, axes, keepdims, shape)
    post = {"ReduceL2": OPS.SQRT, "ReduceLogSum": OPS.LOG}.get(op)
    if post is not None and np.issubdtype(x.dtype, np.integer):
        return ctx.cast(unary_values(ctx, post, ctx.cast(total, np.float32)), x.dtype)
    return unary_values(ctx, post, total) if post else total


@lower("ArgMax", "ArgMin")
def lower_arg(ctx: LoweringContext, node: ir.Node) -> Value:
    """ArgMax/ArgMin(data, axis, keepdims) -> int64 indices (first occurrence)."""
    x = ctx.input(node, 0)
    axis = norm_axis(attr(node, "axis", 0), x.rank)
    last = bool(attr(node, "select_last_index", 0))
    if last:  # the first hit in the reversed tensor is the last one: index = dim - 1 - hit
        if x.shape[axis] is None:
            raise Unsupported("select_last_index=1 on a dynamic axis")
        x = ctx.emit(OPS.REVERSE_V2, [ctx.native(x), ctx.int32_tensor([axis])], x.shape, x.dtype)
    code = OPS.ARG_MAX if node.op_type == "ArgMax" else OPS.ARG_MIN
    if x.dtype == np.int64:  # ARG_MAX/ARG_MIN take no int64: the first entry equal to the extreme
        x, code = _extreme_hits(ctx, x, axis, code == OPS.ARG_MAX), OPS.ARG_MAX
    if not last and x.shape[axis] is None:
        x = _never_empty(ctx, x, axis, code == OPS.ARG_MAX)
    options = schema.ArgMaxOptionsT() if code == OPS.ARG_MAX else schema.ArgMinOptionsT()
    options.outputType = schema.TensorType.INT64
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
    result = ctx.emit(code, [ctx.native(x), ctx.int32_tensor([axis])], shape, np.int64, options=options)
    if last:
        top = ctx.const(np.array(x.shape[axis] - 1, np.int64))
        result = ctx.emit(OPS.SUB, [ctx.native(top), result.tensor], shape, np.int64)
    if not attr(node, "keepdims", 1):
        return result
    kept = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    return ctx.emit(OPS.EXPAND_DIMS, [result.tensor, ctx.int32_tensor([axis])], kept, np.int64,
                    options=schema.ExpandDimsOptionsT())  # fmt: skip


def _extreme_hits(ctx: LoweringContext, x: Value, axis: int, largest: bool) -> Value:
    """1 where ``x`` equals its max (or min) along ``axis``, else 0 (int32, native layout): ARG_MAX of
    it is the first index of the extreme, exactly, for int64 values no narrower type holds."""
    options = schema.ReducerOptionsT()
    options.keepDims = True
    kept = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    code = OPS.REDUCE_MAX if largest else OPS.REDUCE_MIN
    extreme = ctx.emit(code, [ctx.native(x), ctx.int32_tensor([axis])], kept, x.dtype, options=options)
    hits = ctx.emit(OPS.EQUAL, [ctx.native(x), extreme.tensor], x.shape, np.bool_)
    return ctx.cast(hits, np.int32)


def _never_empty(ctx: LoweringContext, x: Value, axis: int, largest: bool) -> Value:
    """``x`` with one entry that never wins appended along a run-time-sized ``axis``: TFLite refuses
    to prepare ARG_MAX/ARG_MIN over an empty axis, also in an IF branch that will not run (a
    `tail.argmax()` guarded by `tail.shape[0] > 0`). The index of a non-empty axis is unchanged
    (the entry comes last and loses every tie)."""
    if np.issubdtype(x.dtype, np.floating):
        worst = -np.inf if largest else np.inf
    else:
        info = np.iinfo(x.dtype)
        worst = info.min if largest else info.max
    rank = len(x.shape)
    axis_hot = np.zeros(rank, np.int32)
    axis_hot[axis] = 1
    shape = ctx.shape_of(x, "int32")
    kept = elementwise_values(ctx, OPS.MUL, shape, ctx.const(1 - axis_hot))
    slab_shape = elementwise_values(ctx, OPS.ADD, kept, ctx.const(axis_hot))
    one_shape = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    slab = ctx.emit(
        OPS.FILL, [slab_shape.tensor, ctx.native(ctx.const(np.array(worst, x.dtype)))], one_shape, x.dtype
    )
    options = schema.ConcatenationOptionsT()
    options.axis = axis
    return ctx.emit(OPS.CONCATENATION, [ctx.native(x), slab.tensor], x.shape, x.dtype, options=options)
