"""Slicing and joining lowerings: Concat, Split, Slice, Gather, Depth/SpaceToDepth (Pad: padding.py).

Concat, Split and Slice keep their input's layout and remap the axes they act on.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import aligned, attr, norm_axis, out_shape
from deploy.runtimes.tflite.ops.short_windows import at_least_slice_extent
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, axis_in, ints

INT32_MIN, INT32_MAX = np.iinfo(np.int32).min, np.iinfo(np.int32).max


@lower("Concat")
def lower_concat(ctx: LoweringContext, node: ir.Node) -> Value:
    """Concat(inputs..., axis): CONCATENATION on the remapped axis."""
    values = [ctx.get(v) for v in node.inputs]
    values = [v for v in values if v is not None and not (v.static and 0 in v.shape and v.rank == 1)]
    shape = out_shape(node)
    rank = values[0].rank
    axis = norm_axis(attr(node, "axis"), rank)
    if all(v.const is not None for v in values):
        return ctx.const(np.concatenate([v.const for v in values], axis=axis))
    tensors, perm = aligned(ctx, values, rank)
    options = schema.ConcatenationOptionsT()
    options.axis = axis_in(perm, axis)
    return ctx.emit(OPS.CONCATENATION, tensors, shape, values[0].dtype, perm=perm, options=options)


@lower("Split")
def lower_split(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """Split(input, split, axis, num_outputs): SPLIT_V with explicit sizes, layout kept."""
    x = ctx.input(node, 0)
    axis = norm_axis(attr(node, "axis", 0), x.rank)
    count = len(node.outputs)
    sizes = attr(node, "split")
    given = ctx.input(node, 1)
    if sizes is None and given is not None and given.const is None:  # sizes known at run time only
        shapes = [out_shape(node, i) for i in range(count)]
        inputs = [ctx.native(x), ctx.native(ctx.cast(given, np.int32)), ctx.int32_tensor(np.array(axis))]
        options = schema.SplitVOptionsT()
        options.numSplits = count
        return ctx.emit_multi(OPS.SPLIT_V, inputs, [(s, x.dtype) for s in shapes], options=options)
    if sizes is None and given is not None:
        sizes = ints(given, "split")
    if sizes is None:
        dim = x.shape[axis]
        if dim is None:
            raise Unsupported("Split of a dynamic dim without explicit sizes")
        chunk = -(-dim // count)
        sizes = [chunk] * (count - 1) + [dim - chunk * (count - 1)]
    perm = x.perm
    shapes = [out_shape(node, i) for i in range(count)]
    tfl_axis = axis_in(perm, axis)
    if len(set(sizes)) == 1 and x.shape[axis] == sum(sizes):
        # Equal parts: SPLIT (XNNPACK takes it; it does not take SPLIT_V).
        options = schema.SplitOptionsT()
        options.numSplits = count
        inputs = [ctx.int32_tensor(np.array(tfl_axis)), ctx.tensor(x, perm)]
        return ctx.emit_multi(OPS.SPLIT, inputs, [(s, x.dtype) for s in shapes], perm=perm, options=options)
    if None not in (x.tflite_shape or (None,)):
        return split_by_slices(ctx, x, tfl_axis, sizes, shapes)
    options = schema.SplitVOptionsT()
    options.numSplits = count
    inputs = [ctx.tensor(x, perm), ctx.int32_tensor(sizes), ctx.int32_tensor(np.array(tfl_axis))]
    return ctx.emit_multi(OPS.SPLIT_V, inputs, [(s, x.dtype) for s in shapes], perm=perm, options=options)


def split_by_slices(ctx: LoweringContext, x: Value, tfl_axis: int, sizes: list[int], shapes) -> list[Value]:
    """Unequal parts of a static tensor: one SLICE each (delegated to XNNPACK, unlike SPLIT_V)."""
    tensor, full = ctx.tensor(x, x.perm), list(x.tflite_shape)
    results, offset = [], 0
    for size, shape in zip(sizes, shapes):
        begin = [0] * len(full)
        begin[tfl_axis] = offset
        extent = list(full)
        extent[tfl_axis] = size
        inputs = [tensor, ctx.int32_tensor(begin), ctx.int32_tensor(extent)]
        results.append(
            ctx.emit(OPS.SLICE, inputs, shape, x.dtype, perm=x.perm, options=schema.SliceOptionsT())
        )
        offset += size
    return results


def clamp32(values) -> np.ndarray:
    return np.clip(np.asarray(values, dtype=np.int64), INT32_MIN, INT32_MAX).astype(np.int32)


@lower("Slice")
def lower_slice(ctx: LoweringContext, node: ir.Node) -> Value:
    """Slice(data, starts, ends, axes, steps): STRIDED_SLICE; untouched axes use the masks."""
    x = ctx.input(node, 0)
    rank = x.rank
    if "starts" in node.attributes:  # opset < 10
        starts, ends = [ctx.const(np.array(attr(node, k), np.int64)) for k in ("starts", "ends")]
        axes_v = ctx.const(np.array(attr(node, "axes", list(range(len(starts.const)))), np.int64))
        steps_v = None
    else:
        starts, ends, axes_v, steps_v = (ctx.input(node, i) for i in range(1, 5))
    count = starts.shape[0] if starts.shape else None
    if count is None:
        raise Unsupported("Slice with starts of unknown length")
    if (axes_v is not None and axes_v.const is None) or (steps_v is not None and steps_v.const is None):
        return slice_at_run_time(ctx, node, x, starts, ends, axes_v, steps_v)
    axes = [norm_axis(a, rank) for a in ints(axes_v, "axes")] if axes_v is not None else list(range(count))
    steps = ints(steps_v, "steps") if steps_v is not None else [1] * count
    perm = x.perm or tuple(range(rank))
    options = schema.StridedSliceOptionsT()
    begin_parts, end_parts = [], []
    for tfl_axis in range(rank):
        onnx_axis = perm[tfl_axis]
        if onnx_axis not in axes:
            options.beginMask |= 1 << tfl_axis
            options.endMask |= 1 << tfl_axis
            begin_parts.append(0)
            end_parts.append(0)
            continue
        k = axes.index(onnx_axis)
        begin_parts.append(("starts", k))
        end_parts.append(("ends", k))
    stride = [steps[axes.index(perm[i])] if perm[i] in axes else 1 for i in range(rank)]
    if starts.const is None or ends.const is None:
        # Vectors may stop after the last sliced axis: the rest is taken whole.
        used = 1 + max(i for i in range(rank) if perm[i] in axes)
        begin_parts, end_parts, stride = begin_parts[:used], end_parts[:used], stride[:used]
        options.beginMask &= (1 << used) - 1
        options.endMask &= (1 << used) - 1
    sources = {"starts": starts, "ends": ends}
    if starts.const is not None:
        begin = [b if isinstance(b, int) else int(starts.const[b[1]]) for b in begin_parts]
        for i in range(len(begin)):
            if stride[i] < 0 and begin[i] >= INT32_MAX:
                options.beginMask |= 1 << i
        begin_t = ctx.int32_tensor(clamp32(begin))
    else:
        begin_t = ctx.native(runtime_vector(ctx, begin_parts, sources))
    if ends.const is not None:
        end = [e if isinstance(e, int) else int(ends.const[e[1]]) for e in end_parts]
        for i in range(len(end)):
            if not options.endMask >> i & 1 and (
                end[i] >= INT32_MAX if stride[i] > 0 else end[i] <= INT32_MIN
            ):
                options.endMask |= 1 << i
        end_t = ctx.int32_tensor(clamp32(end))
        if 0 in (out_shape(node) or ()):
            # an empty slice (`x[:0]`): XNNPACK, which takes a STRIDED_SLICE with constant bounds,
            # returns the whole axis for begin == end; computed bounds keep it on the builtin kernel
            zeros = ctx.int32_tensor([0] * len(end))
            end_t = ctx.native(
                ctx.emit(OPS.ADD, [end_t, zeros], (len(end),), np.int32, options=schema.AddOptionsT())
            )
    else:
        end_t = ctx.native(runtime_vector(ctx, end_parts, sources))
    strides_t = ctx.int32_tensor(stride)
    source = ctx.tensor(x, x.perm)
    if starts.const is not None and ends.const is not None:
        bounds = (np.asarray(starts.const).reshape(-1), np.asarray(ends.const).reshape(-1))
        source = at_least_slice_extent(ctx, x, *bounds, axes, steps, out_shape(node))
    return ctx.emit(OPS.STRIDED_SLICE, [source, begin_t, end_t, strides_t], out_shape(node), x.dtype,
                    perm=x.perm, options=options)  # fmt: skip


def runtime_vector(ctx: LoweringContext, parts, sources: dict[str, Value]) -> Value:
    """An int32 vector built at run time from constants and elements of other vectors."""
    names = {p[0] for p in parts if not isinstance(p, int)}
    if len(names) == 1 and all(not isinstance(p, int) for p in parts):
        whole = sources[names.pop()]
        if [p[1] for p in parts] == list(range(len(parts))) and whole.shape == (len(parts),):
            return clamp_to_int32(ctx, whole)  # the source is the vector itself
    pieces = []
    for part in parts:
        if isinstance(part, int):
            pieces.append(ctx.const(np.array([part], np.int32)))
            continue
        source = sources[part[0]]
        clipped = source
        if source.dtype == np.int64:
            low = ctx.const(np.array(INT32_MIN, np.int64))
            high = ctx.const(np.array(INT32_MAX, np.int64))
            clipped = ctx.emit(OPS.MAXIMUM, [ctx.native(source), ctx.native(low)], source.shape, np.int64)
            clipped = ctx.emit(OPS.MINIMUM, [ctx.native(clipped), ctx.native(high)], source.shape, np.int64)
        clipped = ctx.cast(clipped, np.int32)
        pieces.append(ctx.emit(OPS.GATHER, [ctx.native(clipped), ctx.int32_tensor([part[1]])], (1,), np.int32,
                               options=schema.GatherOptionsT()))  # fmt: skip
    options = schema.ConcatenationOptionsT()
    return ctx.emit(
        OPS.CONCATENATION, [ctx.native(p) for p in pieces], (len(pieces),), np.int32, options=options
    )


@lower("Gather")
def lower_gather(ctx: LoweringContext, node: ir.Node) -> Value:
    """Gather(data, indices, axis): GATHER; negative indices are wrapped first."""
    data, indices = ctx.input(node, 0), ctx.input(node, 1)
    axis = norm_axis(attr(node, "axis", 0), data.rank)
    dim = data.shape[axis]
    if indices.const is not None and (dim is not None or (indices.const >= 0).all()):
        wrapped = indices.const.astype(np.int64)
        if dim is not None:
            wrapped = np.where(wrapped < 0, wrapped + dim, wrapped)
        indices = ctx.const(wrapped.astype(np.int32))
    else:  # negative indices count from the end: one FLOOR_MOD by the (run-time) size wraps them
        # (by at least 1: gathering no positions from no rows, `rows[nonzero(flags)]` of a loop that
        # kept nothing, must not divide by zero)
        if dim is not None:
            modulus = ctx.const(np.array(max(dim, 1), indices.dtype))
        else:  # `x[:, -1]` over a dynamic dim: the size from SHAPE
            sizes = ctx.shape_of(data, indices.dtype)
            options = schema.GatherOptionsT()
            modulus = ctx.emit(OPS.GATHER, [ctx.native(sizes), ctx.int32_tensor([axis])], (1,), indices.dtype,
                               options=options)  # fmt: skip
            one = ctx.const(np.array(1, indices.dtype))
            modulus = ctx.emit(OPS.MAXIMUM, [ctx.native(modulus), ctx.native(one)], (1,), indices.dtype)
            if indices.rank == 0:
                modulus = ctx.reshape(modulus, ())
        indices = ctx.emit(
            OPS.FLOOR_MOD, [ctx.native(indices), ctx.native(modulus)], indices.shape, indices.dtype
        )
    options = schema.GatherOptionsT()
    options.axis = axis
    return ctx.emit(
        OPS.GATHER, [ctx.native(data), ctx.native(indices)], out_shape(node), data.dtype, options=options
    )


@lower("DepthToSpace", "SpaceToDepth")
def lower_depth_space(ctx: LoweringContext, node: ir.Node) -> Value:
    """DEPTH_TO_SPACE / SPACE_TO_DEPTH in NHWC (ONNX DCR order; CRD is not TFLite's)."""
    x = ctx.input(node, 0)
    if attr(node, "mode", "DCR") != "DCR":
        return depth_to_space_crd(ctx, node, x)
    nhwc = (0, 2, 3, 1)
    if node.op_type == "DepthToSpace":
        code, options = OPS.DEPTH_TO_SPACE, schema.DepthToSpaceOptionsT()
    else:
        code, options = OPS.SPACE_TO_DEPTH, schema.SpaceToDepthOptionsT()
    options.blockSize = attr(node, "blocksize")
    return ctx.emit(code, [ctx.tensor(x, nhwc)], out_shape(node), x.dtype, perm=nhwc, options=options)


def clamp_to_int32(ctx: LoweringContext, value: Value) -> Value:
    """int64 indices clamped into int32 range (only a CAST when they are known to be shape values)."""
    if value.dtype != np.int64 or value.bounded:
        return ctx.cast(value, np.int32)
    low = ctx.const(np.array(INT32_MIN, np.int64))
    high = ctx.const(np.array(INT32_MAX, np.int64))
    clipped = ctx.emit(OPS.MAXIMUM, [ctx.native(value), ctx.native(low)], value.shape, np.int64)
    clipped = ctx.emit(OPS.MINIMUM, [clipped.tensor, ctx.native(high)], value.shape, np.int64)
    return ctx.cast(clipped, np.int32)


def scatter_vector(ctx: LoweringContext, index: Value, updates: Value, rank: int) -> Value:
    """A length-``rank`` int32 vector holding ``updates`` at positions ``index`` ([k, 1]), 0 elsewhere."""
    return ctx.emit(OPS.SCATTER_ND, [ctx.native(index), ctx.native(updates), ctx.int32_tensor([rank])], (rank,),
                    np.int32)  # fmt: skip


def axes_index(ctx: LoweringContext, axes: Value, rank: int) -> Value:
    """Run-time axes (possibly negative) as non-negative int32 indices of shape [k, 1]."""
    axes32 = ctx.cast(axes, np.int32)
    negative = ctx.emit(OPS.LESS, [ctx.native(axes32), ctx.native(ctx.const(np.array(0, np.int32)))], axes.shape,
                        np.bool_)  # fmt: skip
    shifted = ctx.emit(OPS.ADD, [ctx.native(axes32), ctx.native(ctx.const(np.array(rank, np.int32)))], axes.shape,
                       np.int32)  # fmt: skip
    fixed = ctx.emit(
        OPS.SELECT_V2, [negative.tensor, shifted.tensor, ctx.native(axes32)], axes.shape, np.int32
    )
    return ctx.reshape(fixed, (axes.shape[0], 1))


def slice_at_run_time(ctx, node, x: Value, starts: Value, ends: Value, axes_v, steps_v) -> Value:
    """Slice whose axes or steps are inputs: full begin/end/strides vectors built with SCATTER_ND."""
    rank, count = x.rank, starts.shape[0]
    axes_v = axes_v or ctx.const(np.arange(count, dtype=np.int64))
    index = axes_index(ctx, axes_v, rank)
    hit = scatter_vector(ctx, index, ctx.const(np.ones(count, np.int32)), rank)
    touched = ctx.emit(
        OPS.GREATER, [hit.tensor, ctx.native(ctx.const(np.array(0, np.int32)))], (rank,), np.bool_
    )
    begin = scatter_vector(ctx, index, clamp_to_int32(ctx, starts), rank)
    end = scatter_vector(ctx, index, clamp_to_int32(ctx, ends), rank)
    end = ctx.emit(OPS.SELECT_V2, [touched.tensor, end.tensor, ctx.native(ctx.const(np.array(INT32_MAX, np.int32)))],
                   (rank,), np.int32)  # fmt: skip
    steps = clamp_to_int32(ctx, steps_v) if steps_v is not None else ctx.const(np.ones(count, np.int32))
    stride = scatter_vector(ctx, index, steps, rank)
    stride = ctx.emit(OPS.SELECT_V2, [touched.tensor, stride.tensor, ctx.native(ctx.const(np.array(1, np.int32)))],
                      (rank,), np.int32)  # fmt: skip
    options = schema.StridedSliceOptionsT()
    inputs = [ctx.native(x), begin.tensor, end.tensor, stride.tensor]
    return ctx.emit(OPS.STRIDED_SLICE, inputs, out_shape(node), x.dtype, options=options)


def depth_to_space_crd(ctx: LoweringContext, node: ir.Node, x: Value) -> Value:
    """DepthToSpace in CRD order: reshape [N, C, b, b, H, W] -> transpose -> reshape (static shapes)."""
    from deploy.runtimes.tflite.ops.shape_ops import reshape_to

    if not x.static:
        raise Unsupported("DepthToSpace CRD with dynamic shapes")
    n, c, h, w = x.shape
    b = attr(node, "blocksize")
    split = reshape_to(ctx, x, (n, c // (b * b), b, b, h, w), [n, c // (b * b), b, b, h, w])
    moved = ctx.emit(OPS.TRANSPOSE, [split.tensor, ctx.int32_tensor([0, 1, 4, 2, 5, 3])],
                     (n, c // (b * b), h, b, w, b), x.dtype)  # fmt: skip
    return reshape_to(ctx, moved, (n, c // (b * b), h * b, w * b), [n, c // (b * b), h * b, w * b])
