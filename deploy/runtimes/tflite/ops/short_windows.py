"""Windows longer than their input, in a branch that does not run at that size.

    if window.shape[0] >= 8:                  # dynamic length, 4..128
        h = self.temporal(window.t()[None])   # Conv1d, kernel 5: needs at least 5 frames

LiteRT prepares both subgraphs of an IF (and a WHILE body) at the sizes of the run, so at 4 frames
the convolution of the branch for "at least 8 frames" fails to prepare ("failed to reshape") although
it would never run. Inside a control-flow subgraph, a VALID window op whose spatial dim is known only
at run time reads its input zero-padded at the end to at least the window's extent:
``max(0, extent - n)`` zeros, none wherever the op is valid (n >= extent), so nothing changes where
the branch runs. A Slice with constant bounds and a static result on such a dim (``alt[-8:]`` times
8 weights) is padded the same way to the extent its bounds need (at_least_slice_extent).
"""

from __future__ import annotations

import numpy as np
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import elementwise_values


def at_least_window(
    ctx: LoweringContext, tensor: int, shape: tuple, kernel, dilations, dtype
) -> tuple[int, tuple]:
    """The NHWC ``tensor`` padded at the end of each run-time-sized spatial dim to the window's
    extent (``kernel``/``dilations`` for H and W); unchanged in the main subgraph or when every such
    window has extent 1."""
    extents = [d * (k - 1) + 1 for k, d in zip(kernel, dilations)]
    grown = [i for i in (0, 1) if shape[1 + i] is None and extents[i] > 1]
    if ctx.index == 0 or not grown:
        return tensor, shape
    options = schema.ShapeOptionsT()
    options.outType = schema.TensorType.INT32
    dims = ctx.emit(OPS.SHAPE, [tensor], (4,), np.int32, options=options)
    need = np.zeros(4, np.int32)
    for i in grown:
        need[1 + i] = extents[i]
    short = elementwise_values(ctx, OPS.SUB, ctx.const(need), dims)
    short = elementwise_values(ctx, OPS.MAXIMUM, short, ctx.const(np.zeros(4, np.int32)))
    pack = schema.PackOptionsT()
    pack.valuesCount, pack.axis = 2, 1
    zeros = ctx.int32_tensor(np.zeros(4, np.int32))
    paddings = ctx.emit(OPS.PACK, [zeros, short.tensor], (4, 2), np.int32, options=pack)
    out = ctx.new_tensor(shape, dtype, name="window_pad")
    ctx.sg.add_op(OPS.PAD, [tensor, paddings.tensor], [out], schema.PadOptionsT())
    return out, shape


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
    options = schema.ShapeOptionsT()
    options.outType = schema.TensorType.INT32
    dims = ctx.emit(OPS.SHAPE, [tensor], (x.rank,), np.int32, options=options)
    pads = []
    for need in (front, back):
        short = elementwise_values(ctx, OPS.SUB, ctx.const(need), dims)
        short = elementwise_values(ctx, OPS.MAXIMUM, short, ctx.const(np.zeros(x.rank, np.int32)))
        pads.append(elementwise_values(ctx, OPS.MUL, short, ctx.const((need > 0).astype(np.int32))))
    pack = schema.PackOptionsT()
    pack.valuesCount, pack.axis = 2, 1
    paddings = ctx.emit(OPS.PACK, [pads[0].tensor, pads[1].tensor], (x.rank, 2), np.int32, options=pack)
    out = ctx.new_tensor(x.tflite_shape, x.dtype, name="slice_pad")
    ctx.sg.add_op(OPS.PAD, [tensor, paddings.tensor], [out], schema.PadOptionsT())
    return out
