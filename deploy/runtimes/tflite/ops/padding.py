"""Pad -> PAD / PADV2 / MIRROR_PAD in the input's layout, with pads known when lowering or computed
at run time (pads that depend on a dynamic size)."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, elementwise_values, norm_axis, out_shape
from deploy.runtimes.tflite.ops.slicing import axes_index, scatter_vector
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, ints


@lower("Pad")
def lower_pad(ctx: LoweringContext, node: ir.Node) -> Value:
    """Pad(data, pads, constant_value, axes): PAD/PADV2 (constant) or MIRROR_PAD (reflect)."""
    x = ctx.input(node, 0)
    rank = x.rank
    mode = attr(node, "mode", "constant")
    if "pads" in node.attributes:
        flat, fill, axes = attr(node, "pads"), ctx.const(np.array(attr(node, "value", 0.0), x.dtype)), None
    else:
        pads_v, fill, axes_v = ctx.input(node, 1), ctx.input(node, 2), ctx.input(node, 3)
        if (pads_v.const is None or (axes_v is not None and axes_v.const is None)) and mode in (
            "constant",
            "reflect",
            "edge",
            "wrap",
        ):
            return pad_at_run_time(ctx, node, x, pads_v, fill, mode, axes_v)
        flat = ints(pads_v, "pads")
        axes = [norm_axis(a, rank) for a in ints(axes_v, "axes")] if axes_v is not None else None
    axes = axes or list(range(rank))
    n = len(axes)
    pairs = {a: (flat[i], flat[i + n]) for i, a in enumerate(axes)}
    if any(b < 0 or e < 0 for b, e in pairs.values()):
        raise Unsupported("Pad with negative pads")
    perm = x.perm or tuple(range(rank))
    paddings = np.array([pairs.get(perm[i], (0, 0)) for i in range(rank)], np.int32)
    inputs = [ctx.tensor(x, x.perm), ctx.int32_tensor(paddings)]
    if mode == "constant":
        if fill is not None and fill.const is not None and float(np.asarray(fill.const).reshape(-1)[0]) == 0:
            fill = None
        if fill is None:
            return ctx.emit(
                OPS.PAD, inputs, out_shape(node), x.dtype, perm=x.perm, options=schema.PadOptionsT()
            )
        fill_t = ctx.native(
            ctx.reshape(ctx.cast(fill, x.dtype), (1,)) if fill.rank else ctx.cast(fill, x.dtype)
        )
        return ctx.emit(OPS.PADV2, [*inputs, fill_t], out_shape(node), x.dtype, perm=x.perm,
                        options=schema.PadV2OptionsT())  # fmt: skip
    if mode == "reflect" or (mode == "edge" and paddings.max() <= 1):
        options = schema.MirrorPadOptionsT()
        options.mode = schema.MirrorPadMode.REFLECT if mode == "reflect" else schema.MirrorPadMode.SYMMETRIC
        return ctx.emit(OPS.MIRROR_PAD, inputs, out_shape(node), x.dtype, perm=x.perm, options=options)
    if mode in ("edge", "wrap"):
        native = np.array([pairs.get(i, (0, 0)) for i in range(rank)], np.int32)
        axes = [i for i in range(rank) if any(native[i])]
        return edge_pad(ctx, x, ctx.const(native), axes, wrap=mode == "wrap")
    raise Unsupported(f"Pad mode {mode!r}")


def pad_at_run_time(
    ctx: LoweringContext,
    node: ir.Node,
    x: Value,
    pads: Value,
    fill: Value | None,
    mode: str,
    axes: Value | None = None,
):
    """Pad with pads computed at run time: [b1..bk, e1..ek] on ``axes`` -> [[b, e] per dim] as int32."""
    rank = x.rank
    if axes is None:
        pairs = ctx.reshape(ctx.cast(pads, np.int32), (2, rank))
        paddings = ctx.emit(OPS.TRANSPOSE, [ctx.native(pairs), ctx.int32_tensor([1, 0])], (rank, 2), np.int32)
    else:
        count = axes.shape[0]
        pairs = ctx.reshape(ctx.cast(pads, np.int32), (2, count))
        index = axes_index(ctx, axes, rank)
        sides = []
        for side in (0, 1):
            row = ctx.emit(OPS.GATHER, [ctx.native(pairs), ctx.int32_tensor(np.array(side))], (count,), np.int32,
                           options=schema.GatherOptionsT())  # fmt: skip
            sides.append(scatter_vector(ctx, index, row, rank))
        options = schema.PackOptionsT()
        options.valuesCount, options.axis = 2, 1
        paddings = ctx.emit(
            OPS.PACK, [sides[0].tensor, sides[1].tensor], (rank, 2), np.int32, options=options
        )
    if mode in ("edge", "wrap"):
        return edge_pad(ctx, x, paddings, list(range(rank)), wrap=mode == "wrap")
    inputs = [ctx.native(x), paddings.tensor]
    if mode == "reflect":
        options = schema.MirrorPadOptionsT()
        options.mode = schema.MirrorPadMode.REFLECT
        return ctx.emit(OPS.MIRROR_PAD, inputs, out_shape(node), x.dtype, options=options)
    if fill is None:
        return ctx.emit(OPS.PAD, inputs, out_shape(node), x.dtype, options=schema.PadOptionsT())
    fill_t = ctx.native(ctx.reshape(ctx.cast(fill, x.dtype), (1,)) if fill.rank else ctx.cast(fill, x.dtype))
    return ctx.emit(OPS.PADV2, [*inputs, fill_t], out_shape(node), x.dtype, options=schema.PadV2OptionsT())


def edge_pad(ctx: LoweringContext, x: Value, paddings: Value, axes: list[int], wrap: bool = False) -> Value:
    """Pad mode 'edge' (replicate) with any pads, also run-time ones: along each padded axis a
    GATHER of positions ``clamp(i - begin, 0, size - 1)`` for ``i`` in ``0 .. size + begin + end``;
    mode 'wrap' (torch's circular padding) gathers ``(i - begin) mod size`` instead.
    ``paddings`` is [[begin, end] per dim] (int32, ONNX dim order)."""
    zero, one = ctx.const(np.array(0, np.int32)), ctx.const(np.array(1, np.int32))
    y = x
    for axis in axes:
        shape = ctx.shape_of(y, "int32")
        size = _pick(ctx, shape, axis)
        pair = ctx.emit(OPS.GATHER, [ctx.native(paddings), ctx.int32_tensor(np.array(axis))], (2,), np.int32,
                        options=schema.GatherOptionsT())  # fmt: skip
        begin, end = _pick(ctx, pair, 0), _pick(ctx, pair, 1)
        count = elementwise_values(ctx, OPS.ADD, elementwise_values(ctx, OPS.ADD, size, begin), end)
        positions = ctx.emit(
            OPS.RANGE, [ctx.native(zero), ctx.native(count), ctx.native(one)], (None,), np.int32
        )
        positions = elementwise_values(ctx, OPS.SUB, positions, begin)
        if wrap:
            positions = elementwise_values(ctx, OPS.FLOOR_MOD, positions, size)
        else:
            positions = elementwise_values(ctx, OPS.MAXIMUM, positions, zero)
            positions = elementwise_values(
                ctx, OPS.MINIMUM, positions, elementwise_values(ctx, OPS.SUB, size, one)
            )
        options = schema.GatherOptionsT()
        options.axis = axis
        out_shape_ = tuple(None if i == axis else d for i, d in enumerate(y.shape))
        y = ctx.emit(OPS.GATHER, [ctx.native(y), positions.tensor], out_shape_, y.dtype, options=options)
    return y


def _pick(ctx: LoweringContext, vector: Value, i: int) -> Value:
    """vector[i] as an int32 scalar."""
    return ctx.emit(OPS.GATHER, [ctx.native(vector), ctx.int32_tensor(np.array(i))], (), np.int32,
                    options=schema.GatherOptionsT())  # fmt: skip
