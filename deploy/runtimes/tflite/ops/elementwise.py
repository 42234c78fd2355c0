"""Elementwise lowerings: unary math, activations, binary arithmetic, comparisons, logic.

All of them keep their input's layout (an NHWC tensor stays NHWC), so chains of
convolutions and activations never go back to NCHW in between.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import (
    attr,
    elementwise,
    elementwise_values,
    out_dtype,
    scalar,
    unary_values,
)
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

UNARY = {
    "Relu": OPS.RELU,
    "Sigmoid": OPS.LOGISTIC,
    "Tanh": OPS.TANH,
    "Exp": OPS.EXP,
    "Log": OPS.LOG,
    "Sqrt": OPS.SQRT,
    "Neg": OPS.NEG,
    "Abs": OPS.ABS,
    "Floor": OPS.FLOOR,
    "Ceil": OPS.CEIL,
    "Sin": OPS.SIN,
    "Cos": OPS.COS,
    "Round": OPS.ROUND,
    "Sign": OPS.SIGN,
    "Not": OPS.LOGICAL_NOT,
    "HardSwish": OPS.HARD_SWISH,
}

BINARY = {
    "Add": (OPS.ADD, schema.AddOptionsT),
    "Sub": (OPS.SUB, schema.SubOptionsT),
    "Mul": (OPS.MUL, schema.MulOptionsT),
    "Pow": (OPS.POW, None),
    "Equal": (OPS.EQUAL, None),
    "Less": (OPS.LESS, None),
    "Greater": (OPS.GREATER, None),
    "LessOrEqual": (OPS.LESS_EQUAL, None),
    "GreaterOrEqual": (OPS.GREATER_EQUAL, None),
    "And": (OPS.LOGICAL_AND, None),
    "Or": (OPS.LOGICAL_OR, None),
    "Xor": (OPS.NOT_EQUAL, None),
}

NARY = {"Max": OPS.MAXIMUM, "Min": OPS.MINIMUM, "Sum": OPS.ADD}


def inputs_of(ctx: LoweringContext, node: ir.Node) -> list[Value]:
    return [ctx.get(v) for v in node.inputs if v is not None and ctx.get(v) is not None]


@lower(*UNARY)
def lower_unary(ctx: LoweringContext, node: ir.Node) -> Value:
    """y = f(x) for the TFLite builtins with the same meaning."""
    (x,) = inputs_of(ctx, node)
    if node.op_type == "Abs" and x.dtype == np.int64:
        # TFLite ABS has no int64 kernel (e.g. |i - j| of position indices); max(x, -x) is exact.
        return elementwise_values(ctx, OPS.MAXIMUM, x, unary_values(ctx, OPS.NEG, x))
    return unary_values(ctx, UNARY[node.op_type], x)


@lower(*BINARY)
def lower_binary(ctx: LoweringContext, node: ir.Node) -> Value:
    """C = A op B with numpy broadcasting (ADD/SUB/MUL carry a fused activation slot)."""
    code, options = BINARY[node.op_type]
    a, b = inputs_of(ctx, node)
    if node.op_type == "Pow":
        if a.dtype == np.int64:  # TFLite POW has no int64 kernel
            return ctx.cast(
                elementwise_values(ctx, OPS.POW, ctx.cast(a, np.int32), ctx.cast(b, np.int32)), np.int64
            )
        b = ctx.cast(b, a.dtype)
    if node.op_type in _COMPARISONS and np.float64 in (a.dtype, b.dtype):
        # TFLite's comparisons have no float64 kernel ("Does not support type 11"); torch compares a
        # tensor with a symbolic float (`flags.sum() > 0.5 * n`) in float64: compared in float32
        a, b = ctx.cast(a, np.float32), ctx.cast(b, np.float32)
    if a.dtype in _BYTES and node.op_type not in ("And", "Or", "Xor"):
        # TFLite reads uint8/int8 operands of ADD/EQUAL/... as quantized values and aborts the process
        # on tensors without quantization parameters (a uint8 mask compared): computed in int32
        dtype = out_dtype(node)
        wide = np.int32 if dtype == a.dtype else dtype
        result = elementwise_values(ctx, code, ctx.cast(a, np.int32), ctx.cast(b, np.int32), dtype=wide)
        return ctx.cast(result, dtype) if dtype == a.dtype else result
    return elementwise(ctx, code, node, [a, b], options() if options else None)


_BYTES = (np.dtype(np.uint8), np.dtype(np.int8))
_COMPARISONS = ("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")


@lower("Div")
def lower_div(ctx: LoweringContext, node: ir.Node) -> Value:
    """C = A / B; integer division truncates toward zero as ONNX says (via float)."""
    a, b = inputs_of(ctx, node)
    if np.issubdtype(a.dtype, np.floating):
        if b.const is not None and np.all(b.const != 0) and np.all(np.isfinite(b.const)):
            # x / c as x * (1 / c): MUL fuses activations and is cheaper (1-ulp difference at most)
            reciprocal = ctx.const((1 / b.const).astype(b.const.dtype))
            return elementwise(ctx, OPS.MUL, node, [a, reciprocal], schema.MulOptionsT())
        return elementwise(ctx, OPS.DIV, node, [a, b], schema.DivOptionsT())
    quotient = elementwise_values(ctx, OPS.DIV, ctx.cast(a, np.float32), ctx.cast(b, np.float32))
    return ctx.cast(quotient, a.dtype)


@lower("Mod")
def lower_mod(ctx: LoweringContext, node: ir.Node) -> Value:
    """C = A mod B: fmod=0 takes the divisor's sign (FLOOR_MOD); fmod=1 the dividend's."""
    a, b = inputs_of(ctx, node)
    if not attr(node, "fmod", 0):
        return elementwise(ctx, OPS.FLOOR_MOD, node, [a, b])
    if np.issubdtype(a.dtype, np.floating):
        quotient = elementwise_values(ctx, OPS.DIV, a, b)
        truncated = unary_values(ctx, OPS.CAST, quotient, dtype=np.int32)
        truncated = unary_values(ctx, OPS.CAST, truncated, dtype=a.dtype)
    else:
        quotient = elementwise_values(ctx, OPS.DIV, ctx.cast(a, np.float32), ctx.cast(b, np.float32))
        truncated = ctx.cast(quotient, a.dtype)
    return elementwise_values(ctx, OPS.SUB, a, elementwise_values(ctx, OPS.MUL, truncated, b))


@lower(*NARY)
def lower_nary(ctx: LoweringContext, node: ir.Node) -> Value:
    """Max/Min/Sum of one or more inputs, folded pairwise."""
    values = inputs_of(ctx, node)
    result = values[0]
    if len(values) == 1:
        return result
    for v in values[1:-1]:
        result = elementwise_values(ctx, NARY[node.op_type], result, v)
    return elementwise(ctx, NARY[node.op_type], node, [result, values[-1]])


@lower("Mean")
def lower_mean(ctx: LoweringContext, node: ir.Node) -> Value:
    values = inputs_of(ctx, node)
    total = values[0]
    for v in values[1:]:
        total = elementwise_values(ctx, OPS.ADD, total, v)
    return elementwise_values(ctx, OPS.DIV, total, scalar(ctx, len(values), total.dtype))


@lower("Where")
def lower_where(ctx: LoweringContext, node: ir.Node) -> Value:
    """output = condition ? X : Y with broadcasting (SELECT_V2)."""
    cond, x, y = inputs_of(ctx, node)
    return elementwise(ctx, OPS.SELECT_V2, node, [cond, x, y])


@lower("Identity", "Dropout")
def lower_identity(ctx: LoweringContext, node: ir.Node) -> list[Value | None]:
    """Identity (and inference-mode Dropout, whose mask is all true) is no operator: the value is reused."""
    x = ctx.input(node, 0)
    if node.op_type == "Dropout":
        ratio, training = ctx.input(node, 1), ctx.input(node, 2)
        if training is not None and (
            training.const is None or bool(np.asarray(training.const).reshape(-1)[0])
        ):
            if ratio is None or ratio.const is None or float(np.asarray(ratio.const).reshape(-1)[0]) != 0.0:
                raise Unsupported("Dropout in training mode (random)")
        if len(node.outputs) > 1 and node.outputs[1].name:
            if not x.static:
                raise Unsupported("Dropout mask of a dynamic shape")
            return [x, ctx.const(np.ones(x.shape, np.bool_))]
    return [x] + [None] * (len(node.outputs) - 1)


@lower("Shrink")
def lower_shrink(ctx: LoweringContext, node: ir.Node) -> Value:
    """x + bias if x < -lambd, x - bias if x > lambd, else 0."""
    x = ctx.input(node, 0)
    lambd, bias = attr(node, "lambd", 0.5), attr(node, "bias", 0.0)
    low = elementwise_values(ctx, OPS.LESS, x, scalar(ctx, -lambd, x.dtype), dtype=np.bool_)
    high = elementwise_values(ctx, OPS.GREATER, x, scalar(ctx, lambd, x.dtype), dtype=np.bool_)
    plus = elementwise_values(ctx, OPS.ADD, x, scalar(ctx, bias, x.dtype))
    minus = elementwise_values(ctx, OPS.SUB, x, scalar(ctx, bias, x.dtype))
    zero = ctx.const(np.zeros((1,), x.dtype))
    upper = ctx.emit(OPS.SELECT_V2, [high.tensor, minus.tensor, ctx.native(zero)], x.shape, x.dtype)
    return ctx.emit(OPS.SELECT_V2, [low.tensor, plus.tensor, upper.tensor], x.shape, x.dtype)


@lower("Reciprocal")
def lower_reciprocal(ctx: LoweringContext, node: ir.Node) -> Value:
    (x,) = inputs_of(ctx, node)
    return elementwise(ctx, OPS.DIV, node, [scalar(ctx, 1, x.dtype), x])


@lower("Clip")
def lower_clip(ctx: LoweringContext, node: ir.Node) -> Value:
    """Clip(x, min, max): RELU/RELU6/RELU_N1_TO_1 when the bounds match, else MAXIMUM/MINIMUM."""
    x = ctx.input(node, 0)
    low, high = ctx.input(node, 1), ctx.input(node, 2)
    if "min" in node.attributes or "max" in node.attributes:  # opset < 11
        low = scalar(ctx, attr(node, "min", -3.4e38), x.dtype)
        high = scalar(ctx, attr(node, "max", 3.4e38), x.dtype)
    bounds = tuple(
        None if v is None or v.const is None else float(np.asarray(v.const).reshape(-1)[0])
        for v in (low, high)
    )
    fused = {(0.0, 6.0): OPS.RELU6, (-1.0, 1.0): OPS.RELU_N1_TO_1, (0.0, None): OPS.RELU}
    if np.issubdtype(x.dtype, np.floating) and (high is None or bounds[1] is not None):
        code = fused.get((bounds[0], bounds[1] if high is not None else None))
        if code is not None and low is not None:
            return unary_values(ctx, code, x)
    result = x
    if low is not None:
        result = elementwise_values(ctx, OPS.MAXIMUM, result, low)
    if high is not None:
        result = elementwise_values(ctx, OPS.MINIMUM, result, high)
    return result


@lower("LeakyRelu")
def lower_leaky_relu(ctx: LoweringContext, node: ir.Node) -> Value:
    options = schema.LeakyReluOptionsT()
    options.alpha = attr(node, "alpha", 0.01)
    return unary_values(ctx, OPS.LEAKY_RELU, ctx.input(node, 0), options)


@lower("PRelu")
def lower_prelu(ctx: LoweringContext, node: ir.Node) -> Value:
    x, slope = ctx.input(node, 0), ctx.input(node, 1)
    return elementwise(ctx, OPS.PRELU, node, [x, slope])


@lower("Gelu")
def lower_gelu(ctx: LoweringContext, node: ir.Node) -> Value:
    """Gelu(x) with approximate 'none' (erf) or 'tanh'."""
    options = schema.GeluOptionsT()
    options.approximate = attr(node, "approximate", "none") == "tanh"
    return unary_values(ctx, OPS.GELU, ctx.input(node, 0), options)


@lower("Elu", "Selu", "Celu")
def lower_elu(ctx: LoweringContext, node: ir.Node) -> Value:
    """alpha * (exp(x) - 1) for x < 0, x otherwise (Selu scales both sides by gamma)."""
    x = ctx.input(node, 0)
    default_alpha = {"Elu": 1.0, "Selu": 1.67326319217681884765625, "Celu": 1.0}[node.op_type]
    alpha = attr(node, "alpha", default_alpha)
    inner = x
    if node.op_type == "Celu":
        inner = elementwise_values(ctx, OPS.DIV, x, scalar(ctx, alpha, x.dtype))
    negative = elementwise_values(ctx, OPS.SUB, unary_values(ctx, OPS.EXP, inner), scalar(ctx, 1.0, x.dtype))
    negative = elementwise_values(ctx, OPS.MUL, negative, scalar(ctx, alpha, x.dtype))
    positive_side = elementwise_values(ctx, OPS.GREATER, x, scalar(ctx, 0.0, x.dtype), dtype=np.bool_)
    result = ctx.emit(
        OPS.SELECT_V2, [ctx.native(positive_side), ctx.native(x), ctx.native(negative)], x.shape, x.dtype
    )
    if node.op_type == "Selu":
        result = elementwise_values(
            ctx, OPS.MUL, result, scalar(ctx, attr(node, "gamma", 1.05070102214813232421875), x.dtype)
        )
    return result


@lower("HardSigmoid")
def lower_hard_sigmoid(ctx: LoweringContext, node: ir.Node) -> Value:
    """max(0, min(1, alpha * x + beta))."""
    x = ctx.input(node, 0)
    y = elementwise_values(ctx, OPS.MUL, x, scalar(ctx, attr(node, "alpha", 0.2), x.dtype))
    y = elementwise_values(ctx, OPS.ADD, y, scalar(ctx, attr(node, "beta", 0.5), x.dtype))
    y = elementwise_values(ctx, OPS.MINIMUM, y, scalar(ctx, 1.0, x.dtype))
    return elementwise_values(ctx, OPS.MAXIMUM, y, scalar(ctx, 0.0, x.dtype))


@lower("Softplus", "Softsign", "Mish", "ThresholdedRelu", "Sinh", "Cosh", "Tan")
def lower_composite_unary(ctx: LoweringContext, node: ir.Node) -> Value:
    """Unary functions written with EXP/LOG/TANH/DIV/SIN/COS."""
    x = ctx.input(node, 0)

    def one():
        return scalar(ctx, 1.0, x.dtype)

    if node.op_type in ("Softplus", "Mish"):  # max(x, 0) + log(1 + exp(-|x|)): no overflow, no cancellation
        tail = unary_values(ctx, OPS.EXP, unary_values(ctx, OPS.NEG, unary_values(ctx, OPS.ABS, x)))
        soft = elementwise_values(ctx, OPS.ADD, unary_values(ctx, OPS.RELU, x),
                                  unary_values(ctx, OPS.LOG, elementwise_values(ctx, OPS.ADD, tail, one())))  # fmt: skip
        if node.op_type == "Softplus":
            return soft
        return elementwise_values(ctx, OPS.MUL, x, unary_values(ctx, OPS.TANH, soft))
    if node.op_type == "Softsign":
        return elementwise_values(
            ctx, OPS.DIV, x, elementwise_values(ctx, OPS.ADD, unary_values(ctx, OPS.ABS, x), one())
        )
    if node.op_type == "ThresholdedRelu":
        above = elementwise_values(
            ctx, OPS.GREATER, x, scalar(ctx, attr(node, "alpha", 1.0), x.dtype), np.bool_
        )
        zero = ctx.const(np.zeros((1,), x.dtype))
        return ctx.emit(OPS.SELECT_V2, [ctx.native(above), ctx.native(x), ctx.native(zero)], x.shape, x.dtype)
    if node.op_type == "Tan":
        return elementwise_values(ctx, OPS.DIV, unary_values(ctx, OPS.SIN, x), unary_values(ctx, OPS.COS, x))
    plus = unary_values(ctx, OPS.EXP, x)
    minus = unary_values(ctx, OPS.EXP, unary_values(ctx, OPS.NEG, x))
    combined = elementwise_values(ctx, OPS.SUB if node.op_type == "Sinh" else OPS.ADD, plus, minus)
    return elementwise_values(ctx, OPS.MUL, combined, scalar(ctx, 0.5, x.dtype))


@lower("Erf")
def lower_erf(ctx: LoweringContext, node: ir.Node) -> Value:
    """erf(x) = sign(x) * (1 - t * exp(-x^2 + poly(t))), t = 1/(1 + |x|/2): |error| < 1.2e-7."""
    x = ctx.input(node, 0)
    if not np.issubdtype(x.dtype, np.floating):
        raise Unsupported("Erf of a non-float tensor")
    coefficients = [0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418,
                    0.37409196, 1.00002368, -1.26551223]  # fmt: skip
    magnitude = unary_values(ctx, OPS.ABS, x)
    t = elementwise_values(ctx, OPS.MUL, magnitude, scalar(ctx, 0.5, x.dtype))
    t = elementwise_values(
        ctx,
        OPS.DIV,
        scalar(ctx, 1.0, x.dtype),
        elementwise_values(ctx, OPS.ADD, t, scalar(ctx, 1.0, x.dtype)),
    )
    poly = scalar(ctx, coefficients[0], x.dtype)
    for c in coefficients[1:]:
        poly = elementwise_values(
            ctx, OPS.ADD, elementwise_values(ctx, OPS.MUL, poly, t), scalar(ctx, c, x.dtype)
        )
    exponent = elementwise_values(ctx, OPS.SUB, poly, unary_values(ctx, OPS.SQUARE, magnitude))
    tail = elementwise_values(ctx, OPS.MUL, t, unary_values(ctx, OPS.EXP, exponent))
    value = elementwise_values(ctx, OPS.SUB, scalar(ctx, 1.0, x.dtype), tail)
    return elementwise_values(ctx, OPS.MUL, value, unary_values(ctx, OPS.SIGN, x))


@lower("Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh")
def lower_inverse_trig(ctx: LoweringContext, node: ir.Node) -> Value:
    """Inverse (hyperbolic) trigonometry written with ATAN2, SQRT and LOG."""
    x = ctx.input(node, 0)

    def num(v):
        return scalar(ctx, v, x.dtype)

    op = node.op_type
    if op in ("Asin", "Acos"):
        # sqrt(1 - x^2) as sqrt((1 - x)(1 + x)): exact near |x| = 1, where 1 - x^2 in float32
        # loses the digits acos(x) ~ sqrt(2 (1 - x)) depends on
        below = elementwise_values(ctx, OPS.SUB, num(1.0), x)
        above = elementwise_values(ctx, OPS.ADD, num(1.0), x)
        root = unary_values(ctx, OPS.SQRT, elementwise_values(ctx, OPS.MUL, below, above))
        pair = (x, root) if op == "Asin" else (root, x)
        return elementwise_values(ctx, OPS.ATAN2, *pair)
    if op == "Atan":
        ones = ctx.const(np.ones(x.shape, x.dtype)) if x.static else \
            elementwise_values(ctx, OPS.ADD, elementwise_values(ctx, OPS.MUL, x, num(0.0)), num(1.0))  # fmt: skip
        return elementwise_values(ctx, OPS.ATAN2, x, ones)
    if op in ("Asinh", "Acosh"):
        square = unary_values(ctx, OPS.SQUARE, x)
        inner = elementwise_values(ctx, OPS.ADD if op == "Asinh" else OPS.SUB, square, num(1.0))
        return unary_values(
            ctx, OPS.LOG, elementwise_values(ctx, OPS.ADD, x, unary_values(ctx, OPS.SQRT, inner))
        )
    ratio = elementwise_values(ctx, OPS.DIV, elementwise_values(ctx, OPS.ADD, num(1.0), x),
                               elementwise_values(ctx, OPS.SUB, num(1.0), x))  # fmt: skip
    return elementwise_values(ctx, OPS.MUL, unary_values(ctx, OPS.LOG, ratio), num(0.5))
