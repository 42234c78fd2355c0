"""Unique(X, sorted) over the flattened input: UNIQUE (values in order of first occurrence, and
each element's index among them), then, for ``sorted=1`` (torch.unique), TOPK_V2 of the negated
values over all of them, which orders them ascending. The inverse indices are UNIQUE's indices
mapped to the ascending order (each first-occurrence value's rank, scattered from TOPK_V2's
indices); the counts are ones scattered onto the indices (SCATTER_ND adds where indices repeat),
in the same order."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, unary_values
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

_TYPES = {np.dtype(np.int32): np.int32, np.dtype(np.int64): np.int64, np.dtype(np.float32): np.float32}


@lower("Unique")
def lower_unique(ctx: LoweringContext, node: ir.Node) -> list[Value | None]:
    x = ctx.input(node, 0)
    if attr(node, "axis", None) is not None:
        raise Unsupported("Unique along an axis")
    outputs = list(node.outputs) + [None] * (4 - len(node.outputs))
    if outputs[1] is not None and outputs[1].uses():
        raise Unsupported("Unique's first-occurrence indices")
    if x.dtype not in _TYPES:
        raise Unsupported(f"Unique of {x.dtype}")
    flat = ctx.reshape(x, (None,))
    options = schema.UniqueOptionsT()
    options.idxOutType = schema.TensorType.INT32
    values, idx = ctx.emit_multi(
        OPS.UNIQUE, [ctx.native(flat)], [((None,), x.dtype), ((None,), np.int32)], options=options
    )
    count = ctx.reshape(ctx.shape_of(values, "int32"), ())
    order = None  # the first-occurrence position of each value in ascending order
    if attr(node, "sorted", 1):
        negated = unary_values(ctx, OPS.NEG, values)
        ordered, order = ctx.emit_multi(
            OPS.TOPK_V2,
            [ctx.native(negated), ctx.native(count)],
            [((None,), x.dtype), ((None,), np.int32)],
            options=schema.TopKV2OptionsT(),
        )
        values = unary_values(ctx, OPS.NEG, ordered)
    inverse = counts = None
    if outputs[2] is not None and outputs[2].uses():
        inverse = ctx.cast(idx if order is None else _gather(ctx, _ranks(ctx, order, count), idx), np.int64)
    if outputs[3] is not None and outputs[3].uses():
        counts = _scattered(ctx, idx, _ones(ctx, idx), count)
        counts = ctx.cast(counts if order is None else _gather(ctx, counts, order), np.int64)
    return [values, None, inverse, counts][: len(node.outputs)]


def _ones(ctx: LoweringContext, like: Value) -> Value:
    one = ctx.native(ctx.const(np.array(1, np.int32)))
    return ctx.emit(OPS.FILL, [ctx.native(ctx.shape_of(like, "int32")), one], like.shape, np.int32)


def _scattered(ctx: LoweringContext, positions: Value, updates: Value, count: Value) -> Value:
    """A vector of ``count`` int32 entries, ``updates`` added at ``positions``."""
    index = ctx.reshape(positions, (None, 1))
    shape = ctx.native(ctx.reshape(count, (1,)))
    return ctx.emit(OPS.SCATTER_ND, [ctx.native(index), ctx.native(updates), shape], (None,), np.int32)


def _ranks(ctx: LoweringContext, order: Value, count: Value) -> Value:
    """Each first-occurrence value's position in ascending order: ``ranks[order[j]] = j``."""
    zero, one = ctx.const(np.array(0, np.int32)), ctx.const(np.array(1, np.int32))
    positions = ctx.emit(OPS.RANGE, [ctx.native(zero), ctx.native(count), ctx.native(one)], (None,), np.int32)
    return _scattered(ctx, order, positions, count)


def _gather(ctx: LoweringContext, table: Value, index: Value) -> Value:
    options = schema.GatherOptionsT()
    options.axis = 0
    return ctx.emit(OPS.GATHER, [ctx.native(table), ctx.native(index)], (None,), table.dtype, options=options)
