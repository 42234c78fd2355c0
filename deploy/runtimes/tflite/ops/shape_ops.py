"""Shape lowerings: Constant, Shape, Reshape, Flatten, Transpose, (Un)Squeeze, Expand, Tile, Cast.

Transpose costs nothing here: its output is the same tensor with a different layout, and a
TRANSPOSE is only written when a later operator needs another layout (or never, when two
transposes cancel). int64 shape data is cast to int32 where TFLite kernels demand it.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS, TENSOR_TYPES
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, broadcast_shape, norm_axis, out_dtype, out_shape
from deploy.runtimes.tflite.ops.bitwise import check_uint64_uses
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, ints, is_identity

INT32_MAX = np.iinfo(np.int32).max


@lower("Constant")
def lower_constant(ctx: LoweringContext, node: ir.Node) -> Value:
    """A constant tensor from the value / value_float(s) / value_int(s) attribute."""
    for key, dtype in (("value_float", np.float32), ("value_floats", np.float32), ("value_int", np.int64),
                       ("value_ints", np.int64)):  # fmt: skip
        if key in node.attributes:
            return ctx.const(np.array(attr(node, key), dtype=dtype))
    if "value" not in node.attributes:
        raise Unsupported("Constant without a tensor value")
    return ctx.const(node.attributes["value"].value.numpy())


@lower("Shape")
def lower_shape(ctx: LoweringContext, node: ir.Node) -> Value:
    """The shape as int64, sliced by start/end; a constant when the dims are static."""
    x = ctx.input(node, 0)
    if x.rank is None:
        raise Unsupported("Shape of a tensor of unknown rank")
    start, end = attr(node, "start", 0), attr(node, "end", x.rank)
    start, end = [max(0, min(x.rank, i + x.rank if i < 0 else i)) for i in (start, end)]
    dims = x.shape[start:end]
    if all(d is not None for d in dims):
        return ctx.const(np.array(dims, dtype=np.int64))
    full = ctx.shape_of(x, "int64")
    if (start, end) == (0, x.rank):
        return full
    return gather_const(ctx, full, list(range(start, end)))


def gather_const(ctx: LoweringContext, vector: Value, indices: list[int]) -> Value:
    options = schema.GatherOptionsT()
    picked = ctx.emit(OPS.GATHER, [ctx.native(vector), ctx.int32_tensor(indices)], (len(indices),), vector.dtype,
                      options=options)  # fmt: skip
    picked.bounded = vector.bounded
    return picked


@lower("Size")
def lower_size(ctx: LoweringContext, node: ir.Node) -> Value:
    x = ctx.input(node, 0)
    if x.static:
        return ctx.const(np.array(int(np.prod(x.shape)), dtype=np.int64))
    options = schema.ReducerOptionsT()
    return ctx.emit(
        OPS.REDUCE_PROD, [ctx.native(ctx.shape_of(x)), ctx.int32_tensor([0])], (), np.int64, options=options
    )


def reshape_target(x: Value, target: list[int], allowzero: bool) -> list[int | None]:
    """ONNX Reshape's target with 0 (copy a dim) resolved; None for a dim known only at run time."""
    resolved: list[int | None] = []
    for i, d in enumerate(target):
        if d == 0 and not allowzero:
            resolved.append(x.shape[i] if x.shape is not None else None)
        else:
            resolved.append(d)
    return resolved


def reshape_to(ctx: LoweringContext, x: Value, shape, target: list[int | None]) -> Value:
    """RESHAPE ``x`` to ``target`` (-1 allowed once; None = copy that dim at run time)."""
    if None not in target and target.count(-1) <= 1:
        if shape is None or sum(d is None for d in shape) > 1 or len(shape) != len(target):
            shape = tuple(None if d == -1 else d for d in target)
        options = schema.ReshapeOptionsT()
        options.newShape = list(target)
        return ctx.emit(
            OPS.RESHAPE, [ctx.native(x), ctx.int32_tensor(target)], shape, x.dtype, options=options
        )
    pieces = []
    dims = ctx.shape_of(x, "int32")
    for i, d in enumerate(target):
        pieces.append(gather_const(ctx, dims, [i]) if d is None else ctx.const(np.array([d], np.int32)))
    runtime = concat_values(ctx, pieces, 0, (len(target),), np.int32)
    return ctx.emit(
        OPS.RESHAPE, [ctx.native(x), ctx.native(runtime)], shape, x.dtype, options=schema.ReshapeOptionsT()
    )


def concat_values(ctx: LoweringContext, values: list[Value], axis: int, shape, dtype) -> Value:
    if all(v.const is not None for v in values):
        return ctx.const(np.concatenate([v.const for v in values], axis=axis).astype(dtype))
    options = schema.ConcatenationOptionsT()
    options.axis = axis
    return ctx.emit(OPS.CONCATENATION, [ctx.native(v) for v in values], shape, dtype, options=options)


@lower("Reshape")
def lower_reshape(ctx: LoweringContext, node: ir.Node) -> Value:
    """Reshape(data, shape): a constant shape is resolved now; a computed one is cast to int32."""
    x, target = ctx.input(node, 0), ctx.input(node, 1)
    shape = out_shape(node)
    if target.const is not None:
        return reshape_to(
            ctx, x, shape, reshape_target(x, ints(target, "shape"), bool(attr(node, "allowzero", 0)))
        )
    runtime = ctx.cast(target, np.int32)
    return ctx.emit(
        OPS.RESHAPE, [ctx.native(x), ctx.native(runtime)], shape, x.dtype, options=schema.ReshapeOptionsT()
    )


@lower("Flatten")
def lower_flatten(ctx: LoweringContext, node: ir.Node) -> Value:
    """Flatten(input, axis) to 2-D: [prod(dims[:axis]), prod(dims[axis:])]."""
    x = ctx.input(node, 0)
    axis = attr(node, "axis", 1)
    axis = axis + x.rank if axis < 0 else axis
    outer, inner = x.shape[:axis], x.shape[axis:]
    prod = lambda dims: None if None in dims else int(np.prod(dims, dtype=np.int64))  # noqa: E731
    target = [prod(outer), prod(inner)]
    if target.count(None) == 1:
        target = [-1 if d is None else d for d in target]
    elif target.count(None) == 2:
        raise Unsupported("Flatten with dynamic dims on both sides of the axis")
    return reshape_to(ctx, x, out_shape(node) or tuple(target), target)


@lower("Transpose")
def lower_transpose(ctx: LoweringContext, node: ir.Node) -> Value:
    """Transpose(data, perm): no operator; the output is the input tensor in another layout."""
    x = ctx.input(node, 0)
    if x.rank is None:
        raise Unsupported("Transpose of a tensor of unknown rank")
    order = attr(node, "perm", list(reversed(range(x.rank))))
    current = x.perm or tuple(range(x.rank))
    moved = [current.index(q) for q in order]  # out axis i is tflite axis moved[i]
    layout = tuple(int(np.argsort(moved)[k]) for k in range(x.rank))
    shape = tuple(x.shape[q] for q in order)
    if x.const is not None:
        return ctx.const(np.transpose(x.const, order))
    return Value(x.name, shape, x.dtype, tensor=x.tensor, perm=None if is_identity(layout) else layout)


def axes_of(ctx: LoweringContext, node: ir.Node, rank: int) -> list[int] | None:
    axes = attr(node, "axes")
    if axes is None and len(node.inputs) > 1 and ctx.input(node, 1) is not None:
        if ctx.input(node, 1).const is None:
            raise RuntimeAxes()
        axes = ints(ctx.input(node, 1), "axes")
    return None if axes is None else sorted(norm_axis(a, rank) for a in axes)


class RuntimeAxes(Exception):
    """The axes of (Un)Squeeze are computed at run time."""


def squeeze_at_run_time(ctx: LoweringContext, node: ir.Node, x: Value) -> Value:
    """(Un)Squeeze with run-time axes: the output shape is assembled with SCATTER_ND/CUMSUM/GATHER."""
    from deploy.runtimes.tflite.ops.slicing import axes_index, scatter_vector

    axes = ctx.input(node, 1)
    count = axes.shape[0]
    shape = out_shape(node)
    in_shape = ctx.shape_of(x, "int32")
    if node.op_type == "Unsqueeze":
        rank = x.rank + count
        new = scatter_vector(ctx, axes_index(ctx, axes, rank), ctx.const(np.ones(count, np.int32)), rank)
        kept = ctx.emit(
            OPS.SUB, [ctx.native(ctx.const(np.ones(rank, np.int32))), new.tensor], (rank,), np.int32
        )
        cumsum = ctx.emit(OPS.CUMSUM, [kept.tensor, ctx.int32_tensor(np.array(0))], (rank,), np.int32,
                          options=schema.CumsumOptionsT())  # fmt: skip
        position = ctx.emit(
            OPS.SUB, [cumsum.tensor, ctx.native(ctx.const(np.array(1, np.int32)))], (rank,), np.int32
        )
        position = ctx.emit(OPS.MAXIMUM, [position.tensor, ctx.native(ctx.const(np.array(0, np.int32)))], (rank,),
                            np.int32)  # fmt: skip
        dims = ctx.emit(OPS.GATHER, [ctx.native(in_shape), position.tensor], (rank,), np.int32,
                        options=schema.GatherOptionsT())  # fmt: skip
        is_new = ctx.emit(
            OPS.GREATER, [new.tensor, ctx.native(ctx.const(np.array(0, np.int32)))], (rank,), np.bool_
        )
        target = ctx.emit(OPS.SELECT_V2, [is_new.tensor, ctx.native(ctx.const(np.array(1, np.int32))), dims.tensor],
                          (rank,), np.int32)  # fmt: skip
    else:
        rank = x.rank - count
        gone = scatter_vector(ctx, axes_index(ctx, axes, x.rank), ctx.const(np.ones(count, np.int32)), x.rank)
        keep = ctx.emit(
            OPS.EQUAL, [gone.tensor, ctx.native(ctx.const(np.array(0, np.int32)))], (x.rank,), np.bool_
        )
        where = ctx.emit(OPS.WHERE, [keep.tensor], (rank, 1), np.int64)
        flat = ctx.reshape(where, (rank,))
        target = ctx.emit(OPS.GATHER, [ctx.native(in_shape), flat.tensor], (rank,), np.int32,
                          options=schema.GatherOptionsT())  # fmt: skip
    return ctx.emit(
        OPS.RESHAPE, [ctx.native(x), target.tensor], shape, x.dtype, options=schema.ReshapeOptionsT()
    )


@lower("Squeeze")
def lower_squeeze(ctx: LoweringContext, node: ir.Node) -> Value:
    """Squeeze(data, axes): SQUEEZE on the matching TFLite axes; the layout shrinks with it."""
    x = ctx.input(node, 0)
    try:
        axes = axes_of(ctx, node, x.rank)
    except RuntimeAxes:
        return squeeze_at_run_time(ctx, node, x)
    if axes is None:
        if not x.static:
            raise Unsupported("Squeeze without axes on a dynamic shape")
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    perm = x.perm or tuple(range(x.rank))
    layout = tuple(p - sum(a < p for a in axes) for p in perm if p not in axes)
    options = schema.SqueezeOptionsT()
    options.squeezeDims = [perm.index(a) for a in axes]
    tensor = ctx.tensor(x, x.perm)
    return ctx.emit(OPS.SQUEEZE, [tensor], shape, x.dtype, perm=layout, options=options)


@lower("Unsqueeze")
def lower_unsqueeze(ctx: LoweringContext, node: ir.Node) -> Value:
    """Unsqueeze(data, axes): a RESHAPE when static, EXPAND_DIMS per axis otherwise."""
    x = ctx.input(node, 0)
    try:
        rank = x.rank + len(axes_of(ctx, node, 99) or [])
    except RuntimeAxes:
        return squeeze_at_run_time(ctx, node, x)
    axes = axes_of(ctx, node, rank)
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    if x.static:
        return reshape_to(ctx, x, tuple(shape), shape)
    result = x
    for a in axes:
        partial = list(result.shape)
        partial.insert(a, 1)
        result = ctx.emit(OPS.EXPAND_DIMS, [ctx.native(result), ctx.int32_tensor([a])], tuple(partial), x.dtype,
                          options=schema.ExpandDimsOptionsT())  # fmt: skip
    return result


@lower("Expand")
def lower_expand(ctx: LoweringContext, node: ir.Node) -> Value:
    """Expand(input, shape): BROADCAST_TO the bidirectionally broadcast shape."""
    x, target = ctx.input(node, 0), ctx.input(node, 1)
    if target.const is None:
        runtime = ctx.cast(target, np.int32)
        ones = ctx.emit(OPS.FILL, [ctx.native(runtime), ctx.native(ctx.const(np.array(1, x.dtype)))],
                        out_shape(node), x.dtype)  # fmt: skip
        return ctx.emit(OPS.MUL if x.dtype != np.bool_ else OPS.LOGICAL_AND, [ctx.native(x), ctx.native(ones)],
                        out_shape(node), x.dtype)  # fmt: skip
    shape = broadcast_shape([x.shape, tuple(ints(target, "shape"))])
    if None in shape:
        x_shape = ctx.shape_of(x, "int32")
        wanted = ctx.const(np.array(ints(target, "shape"), np.int32))
        pad = len(shape) - x.rank
        if pad:
            x_shape = concat_values(
                ctx, [ctx.const(np.ones(pad, np.int32)), x_shape], 0, (len(shape),), np.int32
            )
        runtime = ctx.emit(OPS.MAXIMUM, [ctx.native(x_shape), ctx.native(wanted)], (len(shape),), np.int32)
        return ctx.emit(OPS.BROADCAST_TO, [ctx.native(x), ctx.native(runtime)], shape, x.dtype)
    return ctx.emit(OPS.BROADCAST_TO, [ctx.native(x), ctx.int32_tensor(shape)], shape, x.dtype)


@lower("Tile")
def lower_tile(ctx: LoweringContext, node: ir.Node) -> Value:
    x, repeats = ctx.input(node, 0), ctx.input(node, 1)
    return ctx.emit(OPS.TILE, [ctx.native(x), ctx.native(repeats)], out_shape(node), x.dtype)


@lower("Cast", "CastLike")
def lower_cast(ctx: LoweringContext, node: ir.Node) -> Value:
    """Cast(input, to): CAST (kept in the input's layout)."""
    x = ctx.input(node, 0)
    dtype = out_dtype(node)
    if dtype == np.uint64 and (np.issubdtype(x.dtype, np.integer) or x.dtype == np.bool_):
        check_uint64_uses(node.outputs[0])  # carried as the int64 with the same bits
        dtype = np.dtype(np.int64)
    if dtype not in TENSOR_TYPES:
        raise Unsupported(f"Cast to {dtype}")
    return ctx.cast(x, dtype)


@lower("ConstantOfShape")
def lower_constant_of_shape(ctx: LoweringContext, node: ir.Node) -> Value:
    """ConstantOfShape(shape): FILL with the value attribute (a constant when shape is)."""
    shape = ctx.input(node, 0)
    value = (
        node.attributes["value"].value.numpy().reshape(()) if "value" in node.attributes else np.float32(0)
    )
    if shape.const is not None:
        return ctx.const(np.full(ints(shape, "shape"), value, dtype=value.dtype))
    fill = ctx.const(np.array(value, dtype=value.dtype))
    return ctx.emit(
        OPS.FILL, [ctx.native(ctx.cast(shape, np.int32)), ctx.native(fill)], out_shape(node), value.dtype
    )


@lower("Range")
def lower_range(ctx: LoweringContext, node: ir.Node) -> Value:
    """Range(start, limit, delta): RANGE on scalars of one dtype."""
    start, limit, delta = (ctx.input(node, i) for i in range(3))
    dtype = out_dtype(node)
    if all(v.const is not None for v in (start, limit, delta)):
        return ctx.const(np.arange(start.const, limit.const, delta.const).astype(dtype))
    tensors = [ctx.native(ctx.reshape(v, ()) if v.rank else v) for v in (start, limit, delta)]
    return ctx.emit(OPS.RANGE, tensors, out_shape(node), dtype)
