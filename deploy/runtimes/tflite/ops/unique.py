"""Unique(X, sorted) over the flattened input, values only: UNIQUE (values in order of first
occurrence), then, for ``sorted=1`` (torch.unique), TOPK_V2 of the negated values over all of them,
which orders them ascending."""

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
    if any(out is not None and out.uses() for out in list(node.outputs)[1:]):
        raise Unsupported("Unique's indices, inverse indices or counts")
    if x.dtype not in _TYPES:
        raise Unsupported(f"Unique of {x.dtype}")
    flat = ctx.reshape(x, (None,))
    options = schema.UniqueOptionsT()
    options.idxOutType = schema.TensorType.INT32
    values, _ = ctx.emit_multi(
        OPS.UNIQUE, [ctx.native(flat)], [((None,), x.dtype), ((None,), np.int32)], options=options
    )
    if attr(node, "sorted", 1):
        count = ctx.reshape(ctx.shape_of(values, "int32"), ())
        negated = unary_values(ctx, OPS.NEG, values)
        ordered, _ = ctx.emit_multi(
            OPS.TOPK_V2,
            [ctx.native(negated), ctx.native(count)],
            [((None,), x.dtype), ((None,), np.int32)],
            options=schema.TopKV2OptionsT(),
        )
        values = unary_values(ctx, OPS.NEG, ordered)
    return [values] + [None] * (len(node.outputs) - 1)
