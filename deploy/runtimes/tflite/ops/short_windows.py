"""Windows longer than their input, in a branch that does not run at that size.

    if window.shape[0] >= 8:                  # dynamic length, 4..128
        h = self.temporal(window.t()[None])   # Conv1d, kernel 5: needs at least 5 frames

LiteRT prepares both subgraphs of an IF (and a WHILE body) at the sizes of the run, so at 4 frames
the convolution of the branch for "at least 8 frames" fails to prepare ("failed to reshape") although
it would never run. Inside a control-flow subgraph, a VALID window op whose spatial dim is known only
at run time reads its input zero-padded at the end to at least the window's extent:
``max(0, extent - n)`` zeros, none wherever the op is valid (n >= extent), so nothing changes where
the branch runs. A Slice with constant bounds and a static result on such a dim (``alt[-8:]`` times
8 weights) is padded the same way to the extent its bounds need (at_least_slice_extent). A matrix
product whose contraction dim is run-time sized on one side and static on the other (``rets @ W``
with 4 weight rows, in the branch for "more than 4 returns") reads that side at exactly the static
extent, zero-padded and cut (exact_extent): unchanged where it runs, preparable at any run size.
A convolution over a batch a loop filled (``torch.stack(kept)`` of the slices a loop kept, in the
branch for "some were kept") cannot be prepared at 0 images: its input gets one zero image when it
has none, and the output is cut back to the input's batch (at_least_one_image, batch_of).
"""

from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import elementwise_values
from deploy.runtimes.tflite.values import Value


def at_least_window(
    ctx: LoweringContext, tensor: int, shape: tuple, kernel, dilations, dtype
) -> tuple[int, tuple]:
    """The NHWC ``tensor`` padded at the end of each run-time-sized spatial dim to the window's
    extent (``kernel``/``dilations`` for H and W); unchanged in the main subgraph or when every such
    window has extent 1."""
    # a kernel known only at run time (a filter read from the input): no extent to pad to
    extents = [1 if k is None else d * (k - 1) + 1 for k, d in zip(kernel, dilations)]
    grown = [i for i in (0, 1) if shape[1 + i] is None and extents[i] > 1]
    if ctx.index == 0 or not grown:
        return tensor, shape
    need = np.zeros(4, np.int32)
    for i in grown:
        need[1 + i] = extents[i]
    return _padded(ctx, tensor, shape, dtype, np.zeros(4, np.int32), need, "window_pad"), shape


def _padded(ctx: LoweringContext, tensor: int, shape: tuple, dtype, front, back, name: str) -> int:
    """``tensor`` zero-padded on each axis to at least ``front[i]`` + ``back[i]`` entries, taken from
    the front and the back: ``max(0, need - n)`` zeros on a side, computed at run time."""
    rank = len(shape)
    options = schema.ShapeOptionsT()
    options.outType = schema.TensorType.INT32
    dims = ctx.emit(OPS.SHAPE, [tensor], (rank,), np.int32, options=options)
    sides = []
    for need in (front, back):
        if not need.any():
            sides.append(ctx.int32_tensor(np.zeros(rank, np.int32)))
            continue
        short = elementwise_values(ctx, OPS.SUB, ctx.const(need), dims)
        short = elementwise_values(ctx, OPS.MAXIMUM, short, ctx.const(np.zeros(rank, np.int32)))
        sides.append(short.tensor)
    pack = schema.PackOptionsT()
    pack.valuesCount, pack.axis = 2, 1
    paddings = ctx.emit(OPS.PACK, sides, (rank, 2), np.int32, options=pack)
    out = ctx.new_tensor(shape, dtype, name=name)
    ctx.sg.add_op(OPS.PAD, [tensor, paddings.tensor], [out], schema.PadOptionsT())
    return out


def at_least_slice_extent(ctx: LoweringContext, x, starts, ends, axes, steps, static_out) -> int:
    """The tensor of ``x`` (in its layout) for a Slice with constant bounds whose result has a static
    size on a run-time-sized axis (``alt[-8:]`` in the branch for "at least 8 samples"): inside a
    control-flow subgraph, zero-padded on that axis to the extent the bounds need (at the front for
    bounds from the end, at the back otherwise), so the subgraph prepares at shorter run sizes too.
    ``max(0, extent - n)`` zeros: none wherever the slice is valid, so nothing changes where it runs."""
    tensor = ctx.tensor(x, x.perm)
    if ctx.index == 0 or x.shape is None or static_out is None:
        return tensor
    perm = x.perm or tuple(range(x.rank))
    front, back = np.zeros(x.rank, np.int32), np.zeros(x.rank, np.int32)
    for k, axis in enumerate(axes):
        begin, end = int(starts[k]), int(ends[k])
        if steps[k] != 1 or x.shape[axis] is not None or static_out[axis] is None:
            continue
        if begin >= 0 and 0 <= end < np.iinfo(np.int32).max:
            back[perm.index(axis)] = end  # x[b:e]: needs e entries
        elif begin < 0 and end >= np.iinfo(np.int32).max or begin < end < 0:
            front[perm.index(axis)] = -begin  # x[-k:], x[-k:-j]: needs k entries
    if not (front.any() or back.any()):
        return tensor
    return _padded(ctx, tensor, x.tflite_shape, x.dtype, front, back, "slice_pad")


def exact_extent(ctx: LoweringContext, v: Value, axis: int, extent: int | None) -> Value:
    """Inside a control-flow subgraph, ``v`` zero-padded and cut to exactly ``extent`` entries on a
    run-time-sized ``axis`` (see module docstring); ``v`` itself in the main subgraph, for a static
    axis or an unknown extent."""
    if ctx.index == 0 or extent is None or v.shape is None or not v.rank or v.shape[axis] is not None:
        return v
    axis %= v.rank
    need = np.zeros(v.rank, np.int32)
    need[axis] = extent
    padded = _padded(
        ctx, ctx.native(v), tuple(v.shape), v.dtype, np.zeros(v.rank, np.int32), need, "extent_pad"
    )
    size = [-1] * v.rank
    size[axis] = extent
    shape = tuple(extent if i == axis else d for i, d in enumerate(v.shape))
    inputs = [padded, ctx.int32_tensor([0] * v.rank), ctx.int32_tensor(size)]
    return ctx.emit(OPS.SLICE, inputs, shape, v.dtype, options=schema.SliceOptionsT())


def at_least_one_image(ctx: LoweringContext, tensor: int, shape: tuple, dtype) -> int:
    """Inside a control-flow subgraph, the NHWC ``tensor`` with ``max(0, 1 - n)`` zero images
    added to a batch of run-time size ``n`` (see module docstring); unchanged elsewhere."""
    if ctx.index == 0 or shape[0] is not None:
        return tensor
    need = np.zeros(len(shape), np.int32)
    need[0] = 1
    return _padded(ctx, tensor, shape, dtype, np.zeros(len(shape), np.int32), need, "image_pad")


def batch_of(ctx: LoweringContext, result: Value, like: int, padded: int) -> Value:
    """``result`` cut to the batch of tensor ``like``, the input before at_least_one_image made it
    ``padded``; ``result`` itself when that added nothing."""
    if padded == like:
        return result
    rank = result.rank
    options = schema.ShapeOptionsT()
    options.outType = schema.TensorType.INT32
    dims = ctx.emit(OPS.SHAPE, [like], (rank,), np.int32, options=options)
    keep = np.zeros(rank, np.int32)
    keep[0] = 1
    size = elementwise_values(ctx, OPS.MUL, dims, ctx.const(keep))
    size = elementwise_values(ctx, OPS.SUB, size, ctx.const(1 - keep))  # [n, -1, -1, -1]
    inputs = [result.tensor, ctx.int32_tensor([0] * rank), size.tensor]
    return ctx.emit(
        OPS.SLICE, inputs, result.shape, result.dtype, perm=result.perm, options=schema.SliceOptionsT()
    )
