"""Windows longer than their input, in a branch that does not run at that size.

    if window.shape[0] >= 8:                  # dynamic length, 4..128
        h = self.temporal(window.t()[None])   # Conv1d, kernel 5: needs at least 5 frames

LiteRT prepares both subgraphs of an IF (and a WHILE body) at the sizes of the run, so at 4 frames
the convolution of the branch for "at least 8 frames" fails to prepare ("failed to reshape") although
it would never run. Inside a control-flow subgraph, a VALID window op whose spatial dim is known only
at run time reads its input zero-padded at the end to at least the window's extent:
``max(0, extent - n)`` zeros, none wherever the op is valid (n >= extent), so nothing changes where
the branch runs.
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
