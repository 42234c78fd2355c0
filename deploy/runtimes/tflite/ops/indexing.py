"""Index-based lowerings: Trilu, TopK, OneHot, GatherND, ScatterND, CumSum, Hardmax, IsInf/IsNaN."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, elementwise_values, norm_axis, out_shape, unary_values
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value


@lower("Trilu")
def lower_trilu(ctx: LoweringContext, node: ir.Node) -> Value:
    """Trilu(input, k, upper): keep col - row >= k (upper) or <= k (lower), zero elsewhere."""
    x, k = ctx.input(node, 0), ctx.input(node, 1)
    if x.shape is None or len(x.shape) < 2:
        raise Unsupported("Trilu on a tensor of unknown rank")
    if None in x.shape[-2:]:
        diff = _dynamic_diagonal_offsets(ctx, x)  # a causal mask over a dynamic length
    else:
        rows, cols = x.shape[-2:]
        diff = ctx.const(np.arange(cols, dtype=np.int64)[None, :] - np.arange(rows, dtype=np.int64)[:, None])
    k = ctx.const(np.array(0, np.int64)) if k is None else ctx.cast(k, np.int64)
    code = OPS.GREATER_EQUAL if attr(node, "upper", 1) else OPS.LESS_EQUAL
    keep = elementwise_values(ctx, code, diff, k, dtype=np.bool_)
    zero = ctx.const(np.zeros((1,), x.dtype))
    return ctx.emit(OPS.SELECT_V2, [ctx.native(keep), ctx.native(x), ctx.native(zero)], x.shape, x.dtype)


def _dynamic_diagonal_offsets(ctx: LoweringContext, x: Value) -> Value:
    """col - row for the last two dims of ``x``, sized at run time: RANGE over each size, one as a
    column and one as a row, subtracted with broadcasting (int64, shape (rows, cols))."""
    from deploy.runtimes.tflite.ops.shape_ops import gather_const

    shape = ctx.shape_of(x, "int64")
    rank = len(x.shape)
    ranges = []
    for axis, as_shape in ((rank - 2, (None, 1)), (rank - 1, (1, None))):
        size = ctx.reshape(gather_const(ctx, shape, [axis]), ())
        start, step = ctx.const(np.array(0, np.int64)), ctx.const(np.array(1, np.int64))
        indices = ctx.emit(
            OPS.RANGE, [ctx.native(start), ctx.native(size), ctx.native(step)], (None,), np.int64
        )
        ranges.append(ctx.reshape(indices, as_shape))
    rows, cols = ranges
    return ctx.emit(OPS.SUB, [ctx.native(cols), ctx.native(rows)], (None, None), np.int64)


@lower("TopK")
def lower_topk(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """TopK(X, K, axis, largest, sorted): TOPK_V2 over a layout whose last dim is ``axis``."""
    x, k = ctx.input(node, 0), ctx.input(node, 1)
    axis = norm_axis(attr(node, "axis", -1), x.rank)
    largest = attr(node, "largest", 1)
    perm = tuple(p for p in range(x.rank) if p != axis) + (axis,)
    source = x if largest else unary_values(ctx, OPS.NEG, x)
    k_t = ctx.native(ctx.reshape(ctx.cast(k, np.int32), ()))
    shapes = [out_shape(node, 0), out_shape(node, 1)]
    values, indices = ctx.emit_multi(OPS.TOPK_V2, [ctx.tensor(source, perm), k_t],
                                     [(shapes[0], x.dtype), (shapes[1], np.int32)], perm=perm,
                                     options=schema.TopKV2OptionsT())  # fmt: skip
    if not largest:
        values = unary_values(ctx, OPS.NEG, values)
    return [values, ctx.cast(indices, np.int64)]


@lower("OneHot")
def lower_one_hot(ctx: LoweringContext, node: ir.Node) -> Value:
    """OneHot(indices, depth, values=[off, on], axis); negative indices count from depth."""
    indices, depth, values = (ctx.input(node, i) for i in range(3))
    depth_i = ctx.reshape(ctx.cast(depth, np.int32), ()) if depth.rank else ctx.cast(depth, np.int32)
    index = ctx.cast(indices, np.int32)
    negative = elementwise_values(ctx, OPS.LESS, index, ctx.const(np.array(0, np.int32)), dtype=np.bool_)
    wrapped = elementwise_values(ctx, OPS.ADD, index, depth_i)
    index = ctx.emit(
        OPS.SELECT_V2, [negative.tensor, wrapped.tensor, ctx.native(index)], index.shape, np.int32
    )
    options = schema.OneHotOptionsT()
    axis = attr(node, "axis", -1)
    options.axis = axis + indices.rank + 1 if axis < -1 else axis
    if values.const is not None:
        off, on = values.const.reshape(-1)[:2]
        on_t, off_t = (
            ctx.native(ctx.const(np.array(on, values.dtype))),
            ctx.native(ctx.const(np.array(off, values.dtype))),
        )
    else:
        flat = ctx.reshape(values, (2,))
        off_t, on_t = (ctx.emit(OPS.GATHER, [ctx.native(flat), ctx.int32_tensor(np.array(i))], (), values.dtype,
                                options=schema.GatherOptionsT()).tensor for i in (0, 1))  # fmt: skip
    inputs = [index.tensor, ctx.native(depth_i), on_t, off_t]
    return ctx.emit(OPS.ONE_HOT, inputs, out_shape(node), values.dtype, options=options)


@lower("Hardmax")
def lower_hardmax(ctx: LoweringContext, node: ir.Node) -> Value:
    """1 at the first maximum along ``axis``, 0 elsewhere (ARG_MAX + ONE_HOT)."""
    x = ctx.input(node, 0)
    axis = norm_axis(attr(node, "axis", -1), x.rank)
    if x.shape[axis] is None:
        raise Unsupported("Hardmax on a dynamic axis")
    options = schema.ArgMaxOptionsT()
    options.outputType = schema.TensorType.INT32
    shape = tuple(d for i, d in enumerate(x.shape) if i != axis)
    hit = ctx.emit(OPS.ARG_MAX, [ctx.native(x), ctx.int32_tensor([axis])], shape, np.int32, options=options)
    hot = schema.OneHotOptionsT()
    hot.axis = axis
    inputs = [hit.tensor, ctx.native(ctx.const(np.array(x.shape[axis], np.int32)))]
    inputs += [ctx.native(ctx.const(np.array(1, x.dtype))), ctx.native(ctx.const(np.array(0, x.dtype)))]
    return ctx.emit(OPS.ONE_HOT, inputs, x.shape, x.dtype, options=hot)


@lower("GatherND")
def lower_gather_nd(ctx: LoweringContext, node: ir.Node) -> Value:
    """GatherND(data, indices) with batch_dims = 0 (non-negative indices)."""
    data, indices = ctx.input(node, 0), ctx.input(node, 1)
    if attr(node, "batch_dims", 0):
        raise Unsupported("GatherND with batch_dims > 0")
    return ctx.emit(OPS.GATHER_ND, [ctx.native(data), ctx.native(indices)], out_shape(node), data.dtype)


@lower("ScatterND")
def lower_scatter_nd(ctx: LoweringContext, node: ir.Node) -> Value:
    """ScatterND(data, indices, updates): data where no index hits, updates (or data+updates) elsewhere."""
    data, indices, updates = (ctx.input(node, i) for i in range(3))
    reduction = attr(node, "reduction", "none")
    if reduction not in ("none", "add") or data.shape is None or updates.shape is None:
        raise Unsupported(f"ScatterND reduction={reduction!r} or data of unknown rank")
    if indices.shape is not None and len(indices.shape) == 1:
        # one index tuple (`d[i, j] = v`): SCATTER_ND wants a batch of them and updates of rank >= 1
        indices = ctx.reshape(indices, (1, *indices.shape))
        updates = ctx.reshape(updates, (1, *updates.shape))
    shape = ctx.native(ctx.shape_of(data, "int32"))
    index = ctx.native(_wrapped(ctx, ctx.cast(indices, np.int32), data))
    scattered = ctx.emit(OPS.SCATTER_ND, [index, ctx.native(updates), shape], data.shape, data.dtype)
    if reduction == "add":
        return elementwise_values(ctx, OPS.ADD, data, scattered)
    one = ctx.native(ctx.const(np.array(1, np.int32)))
    ones = ctx.emit(OPS.FILL, [ctx.native(ctx.shape_of(updates, "int32")), one], updates.shape, np.int32)
    hits = ctx.emit(OPS.SCATTER_ND, [index, ones.tensor, shape], data.shape, np.int32)
    return _unless_untouched(ctx, data, scattered, hits)


def _wrapped(ctx: LoweringContext, index: Value, data: Value) -> Value:
    """int32 index tuples with negative entries counted from the end of their dim (ONNX allows them,
    ``hits[-1] += 1``; SCATTER_ND refuses them as out of bounds)."""
    depth = index.shape[-1] if index.shape else None
    if depth is None:
        raise Unsupported("ScatterND with index tuples of unknown length")
    dims = data.shape[:depth]
    if all(d is not None for d in dims):
        sizes = ctx.const(np.array(dims, np.int32))
    else:
        inputs = [ctx.native(ctx.shape_of(data, "int32")), ctx.int32_tensor([0]), ctx.int32_tensor([depth])]
        sizes = ctx.emit(OPS.SLICE, inputs, (depth,), np.int32, options=schema.SliceOptionsT())
    negative = elementwise_values(ctx, OPS.LESS, index, ctx.const(np.array(0, np.int32)), dtype=np.bool_)
    shifted = elementwise_values(ctx, OPS.ADD, index, sizes)
    return ctx.emit(
        OPS.SELECT_V2, [negative.tensor, shifted.tensor, ctx.native(index)], index.shape, np.int32
    )


def _unless_untouched(ctx: LoweringContext, data: Value, scattered: Value, hits: Value) -> Value:
    """``data`` where no index hits, else the written value. SCATTER_ND sums updates that hit one
    position twice; ONNX leaves their order unspecified, so a float result takes their mean, which is
    each of them when they agree (a mask scattered from several rows)."""
    untouched = elementwise_values(ctx, OPS.EQUAL, hits, ctx.const(np.array(0, np.int32)), dtype=np.bool_)
    if np.issubdtype(data.dtype, np.floating):
        count = ctx.cast(
            elementwise_values(ctx, OPS.MAXIMUM, hits, ctx.const(np.array(1, np.int32))), data.dtype
        )
        scattered = elementwise_values(ctx, OPS.DIV, scattered, count)
    return ctx.emit(
        OPS.SELECT_V2, [untouched.tensor, ctx.native(data), scattered.tensor], data.shape, data.dtype
    )


@lower("CumSum")
def lower_cumsum(ctx: LoweringContext, node: ir.Node) -> Value:
    """CumSum(x, axis, exclusive, reverse): CUMSUM."""
    x, axis = ctx.input(node, 0), ctx.input(node, 1)
    options = schema.CumsumOptionsT()
    options.exclusive, options.reverse = bool(attr(node, "exclusive", 0)), bool(attr(node, "reverse", 0))
    axis_t = ctx.native(ctx.reshape(ctx.cast(axis, np.int32), ()) if axis.rank else ctx.cast(axis, np.int32))
    return ctx.emit(OPS.CUMSUM, [ctx.native(x), axis_t], x.shape, x.dtype, options=options)


@lower("IsNaN")
def lower_isnan(ctx: LoweringContext, node: ir.Node) -> Value:
    x = ctx.input(node, 0)
    return ctx.emit(OPS.NOT_EQUAL, [ctx.tensor(x, x.perm)] * 2, x.shape, np.bool_, perm=x.perm)


@lower("IsInf")
def lower_isinf(ctx: LoweringContext, node: ir.Node) -> Value:
    """IsInf(X, detect_positive, detect_negative)."""
    x = ctx.input(node, 0)
    positive, negative = attr(node, "detect_positive", 1), attr(node, "detect_negative", 1)
    if positive and negative:
        return elementwise_values(ctx, OPS.EQUAL, unary_values(ctx, OPS.ABS, x), ctx.const(np.array(np.inf, x.dtype)),
                                  dtype=np.bool_)  # fmt: skip
    target = ctx.const(np.array(np.inf if positive else -np.inf, x.dtype))
    if not (positive or negative):
        target = ctx.const(np.array(np.nan, x.dtype))
    return elementwise_values(ctx, OPS.EQUAL, x, target, dtype=np.bool_)


def full_coordinates(ctx: LoweringContext, indices: Value, axis: int, dim: int, rank: int) -> Value:
    """[..., rank] int32 coordinates: ``indices`` (wrapped if negative) on ``axis``, the grid elsewhere."""
    index = ctx.cast(indices, np.int32)
    negative = elementwise_values(ctx, OPS.LESS, index, ctx.const(np.array(0, np.int32)), dtype=np.bool_)
    shifted = elementwise_values(ctx, OPS.ADD, index, ctx.const(np.array(dim, np.int32)))
    index = ctx.emit(
        OPS.SELECT_V2, [negative.tensor, shifted.tensor, ctx.native(index)], indices.shape, np.int32
    )
    grids = np.indices(indices.shape, dtype=np.int32)
    parts = [ctx.native(ctx.reshape(index if i == axis else ctx.const(grids[i]), (*indices.shape, 1)))
             for i in range(rank)]  # fmt: skip
    options = schema.ConcatenationOptionsT()
    options.axis = rank
    return ctx.emit(OPS.CONCATENATION, parts, (*indices.shape, rank), np.int32, options=options)


def runtime_coordinates(ctx: LoweringContext, data: Value, indices: Value, axis: int) -> Value:
    """full_coordinates for run-time shapes: the grid of each other dim from a RANGE over its size,
    broadcast to the indices' shape."""
    rank = data.rank
    index_shape = ctx.shape_of(indices, "int32")
    data_shape = ctx.shape_of(data, "int32")
    index = ctx.cast(indices, np.int32)
    negative = elementwise_values(ctx, OPS.LESS, index, ctx.const(np.array(0, np.int32)), dtype=np.bool_)
    size = _element(ctx, data_shape, axis)
    shifted = elementwise_values(ctx, OPS.ADD, index, size)
    index = ctx.emit(
        OPS.SELECT_V2, [negative.tensor, shifted.tensor, ctx.native(index)], indices.shape, np.int32
    )
    zero, step = ctx.native(ctx.const(np.array(0, np.int32))), ctx.native(ctx.const(np.array(1, np.int32)))
    parts = []
    for i in range(rank):
        if i == axis:
            grid = index
        else:
            count = _element(ctx, index_shape, i)
            line = ctx.emit(OPS.RANGE, [zero, ctx.native(count), step], (indices.shape[i],), np.int32)
            shape = [1] * rank
            shape[i] = -1
            line = ctx.reshape(line, tuple(None if d == -1 else d for d in shape))
            grid = ctx.emit(
                OPS.BROADCAST_TO, [ctx.native(line), ctx.native(index_shape)], indices.shape, np.int32
            )
        parts.append(
            ctx.emit(
                OPS.EXPAND_DIMS, [ctx.native(grid), ctx.int32_tensor([rank])], (*indices.shape, 1), np.int32
            ).tensor
        )
    options = schema.ConcatenationOptionsT()
    options.axis = rank
    return ctx.emit(OPS.CONCATENATION, parts, (*indices.shape, rank), np.int32, options=options)


def _element(ctx: LoweringContext, vector: Value, i: int) -> Value:
    """vector[i] as a scalar (GATHER of one position)."""
    item = ctx.emit(OPS.GATHER, [ctx.native(vector), ctx.int32_tensor(np.array(i))], (), vector.dtype,
                    options=schema.GatherOptionsT())  # fmt: skip
    return item


@lower("GatherElements")
def lower_gather_elements(ctx: LoweringContext, node: ir.Node) -> Value:
    """GatherElements(data, indices, axis) as GATHER_ND over full coordinates (run-time shapes too)."""
    data, indices = ctx.input(node, 0), ctx.input(node, 1)
    if data.shape is None or indices.shape is None:
        raise Unsupported("GatherElements of unknown rank")
    axis = norm_axis(attr(node, "axis", 0), data.rank)
    if indices.static and data.shape[axis] is not None:
        coords = full_coordinates(ctx, indices, axis, data.shape[axis], data.rank)
    else:
        coords = runtime_coordinates(ctx, data, indices, axis)
    return ctx.emit(OPS.GATHER_ND, [ctx.native(data), coords.tensor], out_shape(node), data.dtype)


@lower("ScatterElements", "Scatter")
def lower_scatter_elements(ctx: LoweringContext, node: ir.Node) -> Value:
    """ScatterElements(data, indices, updates, axis, reduction none/add) via SCATTER_ND (static shapes)."""
    data, indices, updates = (ctx.input(node, i) for i in range(3))
    reduction = attr(node, "reduction", "none")
    if reduction not in ("none", "add") or data.shape is None or indices.shape is None:
        raise Unsupported(f"ScatterElements reduction={reduction!r} or inputs of unknown rank")
    axis = norm_axis(attr(node, "axis", 0), data.rank)
    if data.static and indices.static:
        coords = full_coordinates(ctx, indices, axis, data.shape[axis], data.rank)
        shape = ctx.int32_tensor(list(data.shape))
    else:
        coords = runtime_coordinates(ctx, data, indices, axis)
        shape = ctx.native(ctx.shape_of(data, "int32"))
    scattered = ctx.emit(OPS.SCATTER_ND, [coords.tensor, ctx.native(updates), shape], data.shape, data.dtype)
    if reduction == "add":
        return elementwise_values(ctx, OPS.ADD, data, scattered)
    if indices.static:
        ones = ctx.native(ctx.const(np.ones(indices.shape, np.int32)))
    else:
        one = ctx.native(ctx.const(np.array(1, np.int32)))
        ones = ctx.emit(
            OPS.FILL, [ctx.native(ctx.shape_of(indices, "int32")), one], indices.shape, np.int32
        ).tensor
    hits = ctx.emit(OPS.SCATTER_ND, [coords.tensor, ones, shape], data.shape, np.int32)
    return _unless_untouched(ctx, data, scattered, hits)


@lower("EyeLike")
def lower_eye_like(ctx: LoweringContext, node: ir.Node) -> Value:
    """An identity-like matrix of the input's shape, shifted by k: a constant when the shape is
    static, else ones where col - row == k over RANGEs of the run-time sizes."""
    from deploy.runtimes.tflite.ops._common import out_dtype

    x = ctx.input(node, 0)
    if x.static:
        return ctx.const(np.eye(x.shape[0], x.shape[1], k=attr(node, "k", 0), dtype=out_dtype(node)))
    if x.shape is None or len(x.shape) != 2:
        raise Unsupported("EyeLike of a tensor that is not 2-D")
    k = ctx.const(np.array(attr(node, "k", 0), np.int64))
    on_diagonal = elementwise_values(ctx, OPS.EQUAL, _dynamic_diagonal_offsets(ctx, x), k, dtype=np.bool_)
    return ctx.cast(on_diagonal, out_dtype(node))


@lower("ReverseSequence")
def lower_reverse_sequence(ctx: LoweringContext, node: ir.Node) -> Value:
    """REVERSE_SEQUENCE(input, sequence_lens) with seq_dim = time_axis, batch_dim = batch_axis."""
    x, lens = ctx.input(node, 0), ctx.input(node, 1)
    options = schema.ReverseSequenceOptionsT()
    options.seqDim, options.batchDim = attr(node, "time_axis", 0), attr(node, "batch_axis", 1)
    return ctx.emit(OPS.REVERSE_SEQUENCE, [ctx.native(x), ctx.native(ctx.cast(lens, np.int32))], x.shape, x.dtype,
                    options=options)  # fmt: skip


@lower("NonZero")
def lower_nonzero(ctx: LoweringContext, node: ir.Node) -> Value:
    """NonZero(X) -> [rank, count] int64 indices: WHERE gives [count, rank]."""
    x = ctx.input(node, 0)
    mask = x if x.dtype == np.bool_ else elementwise_values(ctx, OPS.NOT_EQUAL, x, ctx.const(np.zeros((), x.dtype)),
                                                             dtype=np.bool_)  # fmt: skip
    where = ctx.emit(OPS.WHERE, [ctx.native(mask)], (None, x.rank), np.int64)
    return ctx.emit(OPS.TRANSPOSE, [where.tensor, ctx.int32_tensor([1, 0])], (x.rank, None), np.int64)


@lower("Compress")
def lower_compress(ctx: LoweringContext, node: ir.Node) -> Value:
    """Compress(input, condition, axis): GATHER of the positions WHERE the condition holds."""
    x, condition = ctx.input(node, 0), ctx.input(node, 1)
    axis = attr(node, "axis")
    if axis is None:
        if not x.static:
            raise Unsupported("Compress without axis on a dynamic shape")
        x, axis = ctx.reshape(x, (int(np.prod(x.shape)),)), 0
    axis = norm_axis(axis, x.rank)
    dim = x.shape[axis]
    if condition.shape is None or condition.shape[0] is None or dim is None:
        raise Unsupported("Compress with dynamic shapes")
    if condition.shape[0] > dim:
        condition = ctx.emit(OPS.SLICE, [ctx.native(condition), ctx.int32_tensor([0]), ctx.int32_tensor([dim])], (dim,),
                             np.bool_)  # fmt: skip
    where = ctx.emit(OPS.WHERE, [ctx.native(condition)], (None, 1), np.int64)
    index = ctx.reshape(where, (None,))
    options = schema.GatherOptionsT()
    options.axis = axis
    shape = tuple(None if i == axis else d for i, d in enumerate(x.shape))
    return ctx.emit(OPS.GATHER, [ctx.native(x), index.tensor], shape, x.dtype, options=options)
