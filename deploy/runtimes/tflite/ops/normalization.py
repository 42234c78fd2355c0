"""Normalisation lowerings: BatchNormalization, Layer/Instance/Group norm, Softmax, LRN.

BatchNormalization with constant statistics becomes one MUL and one ADD in the input's
layout (channels last inside CNNs). Softmax runs in a layout whose last dim is the axis.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import (
    attr,
    elementwise_values,
    norm_axis,
    out_shape,
    scalar,
    unary_values,
)
from deploy.runtimes.tflite.ops.reduction import reduce
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, channels_last


def per_channel(ctx: LoweringContext, v: Value, rank: int) -> Value:
    """A [C] vector reshaped to [C, 1, ..., 1] so it broadcasts along axis 1 of a rank-``rank`` tensor."""
    shape = (v.shape[0], *([1] * (rank - 2)))
    return ctx.reshape(v, shape)


@lower("BatchNormalization")
def lower_batch_norm(ctx: LoweringContext, node: ir.Node) -> Value:
    """Y = (X - mean) / sqrt(var + eps) * scale + B, as X * a + b with a, b per channel."""
    x, scale, bias, mean, var = (ctx.input(node, i) for i in range(5))
    if len([o for o in node.outputs if o.name]) > 1:
        raise Unsupported("BatchNormalization in training mode")
    eps = attr(node, "epsilon", 1e-5)
    if all(v.const is not None for v in (scale, bias, mean, var)):
        a = (scale.const / np.sqrt(var.const + np.float32(eps))).astype(x.dtype)
        b = (bias.const - mean.const * a).astype(x.dtype)
        a_v, b_v = ctx.const(a), ctx.const(b)
    else:
        denom = unary_values(ctx, OPS.SQRT, elementwise_values(ctx, OPS.ADD, var, scalar(ctx, eps, x.dtype)))
        a_v = elementwise_values(ctx, OPS.DIV, scale, denom)
        b_v = elementwise_values(ctx, OPS.SUB, bias, elementwise_values(ctx, OPS.MUL, mean, a_v))
    if x.rank > 1:
        a_v, b_v = per_channel(ctx, a_v, x.rank), per_channel(ctx, b_v, x.rank)
    return elementwise_values(ctx, OPS.ADD, elementwise_values(ctx, OPS.MUL, x, a_v), b_v)


def normalize(ctx: LoweringContext, x: Value, axes: list[int], eps: float) -> tuple[Value, Value, Value]:
    """(x - mean) * rsqrt(var + eps) over ``axes``, plus the mean and the inverse std dev."""
    mean = reduce(ctx, OPS.MEAN, x, axes, True)
    centered = elementwise_values(ctx, OPS.SUB, x, mean)
    var = reduce(ctx, OPS.MEAN, unary_values(ctx, OPS.SQUARE, centered), axes, True)
    inv_std = unary_values(ctx, OPS.RSQRT, elementwise_values(ctx, OPS.ADD, var, scalar(ctx, eps, x.dtype)))
    return elementwise_values(ctx, OPS.MUL, centered, inv_std), mean, inv_std


@lower("LayerNormalization")
def lower_layer_norm(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    """LayerNormalization(X, Scale, B, axis, epsilon) -> Y, Mean, InvStdDev."""
    x, scale, bias = ctx.input(node, 0), ctx.input(node, 1), ctx.input(node, 2)
    axis = norm_axis(attr(node, "axis", -1), x.rank)
    normalized, mean, inv_std = normalize(ctx, x, list(range(axis, x.rank)), attr(node, "epsilon", 1e-5))
    y = elementwise_values(ctx, OPS.MUL, normalized, scale)
    if bias is not None:
        y = elementwise_values(ctx, OPS.ADD, y, bias)
    return [y, mean, inv_std][: len(node.outputs)]


@lower("InstanceNormalization")
def lower_instance_norm(ctx: LoweringContext, node: ir.Node) -> Value:
    """InstanceNormalization(input, scale, B): per-sample, per-channel over spatial dims."""
    x, scale, bias = (ctx.input(node, i) for i in range(3))
    if x.perm is None and x.rank >= 3:
        x = Value(
            x.name, x.shape, x.dtype, tensor=ctx.tensor(x, channels_last(x.rank)), perm=channels_last(x.rank)
        )
    normalized, _, _ = normalize(ctx, x, list(range(2, x.rank)), attr(node, "epsilon", 1e-5))
    y = elementwise_values(ctx, OPS.MUL, normalized, per_channel(ctx, scale, x.rank))
    return elementwise_values(ctx, OPS.ADD, y, per_channel(ctx, bias, x.rank))


@lower("MeanVarianceNormalization")
def lower_mvn(ctx: LoweringContext, node: ir.Node) -> Value:
    x = ctx.input(node, 0)
    axes = [norm_axis(a, x.rank) for a in attr(node, "axes", [0, 2, 3])]
    mean = reduce(ctx, OPS.MEAN, x, axes, True)
    centered = elementwise_values(ctx, OPS.SUB, x, mean)
    var = reduce(ctx, OPS.MEAN, unary_values(ctx, OPS.SQUARE, centered), axes, True)
    std = unary_values(ctx, OPS.SQRT, var)
    return elementwise_values(
        ctx, OPS.DIV, centered, elementwise_values(ctx, OPS.ADD, std, scalar(ctx, 1e-9, x.dtype))
    )


def softmax_family(ctx: LoweringContext, node: ir.Node, code: int) -> Value:
    x = ctx.input(node, 0)
    opset = ctx.options.get("opset", 13)
    axis = norm_axis(attr(node, "axis", -1 if opset >= 13 else 1), x.rank)
    if opset < 13 and axis != x.rank - 1:
        # Before opset 13 the input is coerced to 2-D at ``axis``.
        from deploy.runtimes.tflite.ops.shape_ops import reshape_to

        if not x.static:
            raise Unsupported("Softmax (opset < 13) on a dynamic shape")
        flat = (int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:])))
        x2 = reshape_to(ctx, x, flat, list(flat))
        options = schema.SoftmaxOptionsT() if code == OPS.SOFTMAX else schema.LogSoftmaxOptionsT()
        if code == OPS.SOFTMAX:
            options.beta = 1.0
        y = ctx.emit(code, [x2.tensor], flat, x.dtype, options=options)
        return reshape_to(ctx, y, x.shape, list(x.shape))
    perm = x.perm or tuple(range(x.rank))
    if perm[-1] != axis:
        perm = tuple(p for p in perm if p != axis) + (axis,)
    options = schema.SoftmaxOptionsT() if code == OPS.SOFTMAX else schema.LogSoftmaxOptionsT()
    if code == OPS.SOFTMAX:
        options.beta = 1.0
    return ctx.emit(
        code, [ctx.tensor(x, perm)], out_shape(node) or x.shape, x.dtype, perm=perm, options=options
    )


@lower("Softmax")
def lower_softmax(ctx: LoweringContext, node: ir.Node) -> Value:
    """Softmax(input, axis): SOFTMAX over the last dim of a layout that ends with ``axis``."""
    return softmax_family(ctx, node, OPS.SOFTMAX)


@lower("LogSoftmax")
def lower_log_softmax(ctx: LoweringContext, node: ir.Node) -> Value:
    return softmax_family(ctx, node, OPS.LOG_SOFTMAX)


@lower("LpNormalization")
def lower_lp_norm(ctx: LoweringContext, node: ir.Node) -> Value:
    """x / ||x||_p along ``axis`` (p = 1 or 2)."""
    x = ctx.input(node, 0)
    axis = norm_axis(attr(node, "axis", -1), x.rank)
    p = attr(node, "p", 2)
    pre = OPS.SQUARE if p == 2 else OPS.ABS
    total = reduce(ctx, OPS.SUM, unary_values(ctx, pre, x), [axis], True)
    if p == 2:
        total = unary_values(ctx, OPS.SQRT, total)
    return elementwise_values(ctx, OPS.DIV, x, total)


@lower("LRN")
def lower_lrn(ctx: LoweringContext, node: ir.Node) -> Value:
    """LRN over channels: LOCAL_RESPONSE_NORMALIZATION in NHWC (alpha is per element in TFLite)."""
    x = ctx.input(node, 0)
    if x.rank != 4:
        raise Unsupported("LRN of a non-4-D tensor")
    size = attr(node, "size")
    options = schema.LocalResponseNormalizationOptionsT()
    options.radius = (size - 1) // 2
    options.bias = attr(node, "bias", 1.0)
    options.alpha = attr(node, "alpha", 1e-4) / size
    options.beta = attr(node, "beta", 0.75)
    nhwc = (0, 2, 3, 1)
    return ctx.emit(OPS.LOCAL_RESPONSE_NORMALIZATION, [ctx.tensor(x, nhwc)], x.shape, x.dtype, perm=nhwc,
                    options=options)  # fmt: skip
