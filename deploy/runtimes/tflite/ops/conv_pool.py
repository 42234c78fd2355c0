"""Convolution and pooling lowerings: CONV_2D, DEPTHWISE_CONV_2D, pools, all in NHWC.

ONNX pads become TFLite SAME when they are exactly what SAME computes for the (static)
input size, VALID when zero, and an explicit PAD/PADV2 before a VALID op otherwise.
1-D convolutions and pools run as 2-D ones with a unit height (a pure reshape of NWC).
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, out_shape
from deploy.runtimes.tflite.ops.matmul import may_be_empty
from deploy.runtimes.tflite.ops.short_windows import at_least_one_image, at_least_window, batch_of
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, channels_last, permute

NHWC = (0, 2, 3, 1)


def spatial_pads(node: ir.Node, in_dims, kernel, strides, dilations) -> list[tuple[int, int]]:
    """(begin, end) padding per spatial dim as ONNX defines it (auto_pad included)."""
    auto_pad = attr(node, "auto_pad", "NOTSET")
    n = len(kernel)
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pads = []
        for size, k, s, d in zip(in_dims, kernel, strides, dilations):
            if size is None:
                raise Unsupported("auto_pad SAME with a dynamic spatial dim")
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            small = total // 2
            pads.append((small, total - small) if auto_pad == "SAME_UPPER" else (total - small, small))
        return pads
    if auto_pad == "VALID":
        return [(0, 0)] * n
    flat = attr(node, "pads", [0] * (2 * n))
    return list(zip(flat[:n], flat[n:]))


def tflite_same(in_dims, kernel, strides, dilations) -> list[tuple[int, int]] | None:
    """The padding TFLite's SAME uses for these dims (None when a dynamic dim's depends on its size:
    with stride 1 it is ``(k - 1) * d`` in total for every size)."""
    pads = []
    for size, k, s, d in zip(in_dims, kernel, strides, dilations):
        if size is None and s == 1:
            total = (k - 1) * d
            pads.append((total // 2, total - total // 2))
            continue
        if size is None:
            return None
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def as_nhwc_2d(ctx: LoweringContext, x: Value) -> tuple[int, tuple]:
    """``x`` (rank 3 or 4, channels first) as an NHWC rank-4 tensor, and its NHWC shape."""
    if x.rank == 4:
        return ctx.tensor(x, NHWC), permute(x.shape, NHWC)
    if x.rank == 3:
        n, c, w = x.shape
        nwc = ctx.tensor(x, (0, 2, 1))
        if (n, c, w).count(None) > 1:  # RESHAPE takes one unknown dim: insert the unit height instead
            out = ctx.sg.add_tensor(ctx.name("expand_dims"), (n, 1, w, c), x.dtype)
            ctx.sg.add_op(OPS.EXPAND_DIMS, [nwc, ctx.int32_tensor([1])], [out])
            return out, (n, 1, w, c)
        return ctx.reshape_tensor(nwc, (n, 1, w, c), x.dtype), (n, 1, w, c)
    raise Unsupported(f"rank-{x.rank} convolution/pooling (only 1-D and 2-D)")


def from_nhwc_2d(ctx: LoweringContext, result: Value, rank: int, shape) -> Value:
    """Undo ``as_nhwc_2d`` on an op's NHWC result of ONNX ``shape``."""
    if rank == 4:
        return result
    n, c, w = shape
    if (n, c, w).count(None) > 1:
        options = schema.SqueezeOptionsT()
        options.squeezeDims = [1]
        tensor = ctx.sg.add_tensor(ctx.name("squeeze"), (n, w, c), result.dtype)
        ctx.sg.add_op(OPS.SQUEEZE, [result.tensor], [tensor], options)
        return Value(result.name, tuple(shape), result.dtype, tensor=tensor, perm=(0, 2, 1))
    tensor = ctx.reshape_tensor(result.tensor, (n, w, c), result.dtype)
    return Value(result.name, tuple(shape), result.dtype, tensor=tensor, perm=(0, 2, 1))


def pad_nhwc(
    ctx: LoweringContext, tensor: int, shape, pads, dtype, fill: float | None = None
) -> tuple[int, tuple]:
    """Explicit PAD (or PADV2 with ``fill``) of an NHWC tensor's spatial dims."""
    if not any(b or e for b, e in pads):
        return tensor, shape
    paddings = np.array([[0, 0], *pads, [0, 0]], dtype=np.int32)
    new_shape = (
        shape[0],
        *(None if d is None else d + b + e for d, (b, e) in zip(shape[1:3], pads)),
        shape[3],
    )
    out = ctx.new_tensor(new_shape, dtype, name="pad")
    if fill is None:
        ctx.sg.add_op(OPS.PAD, [tensor, ctx.int32_tensor(paddings)], [out], schema.PadOptionsT())
    else:
        fill_value = ctx.tensor(ctx.const(np.array([fill], dtype=dtype)))
        ctx.sg.add_op(
            OPS.PADV2, [tensor, ctx.int32_tensor(paddings), fill_value], [out], schema.PadV2OptionsT()
        )
    return out, new_shape


def window_attrs(node: ir.Node, rank: int, kernel=None):
    kernel = list(kernel or attr(node, "kernel_shape"))
    n = len(kernel)
    strides = list(attr(node, "strides", [1] * n))
    dilations = list(attr(node, "dilations", [1] * n))
    if rank == 3:
        kernel, strides, dilations = [1, *kernel], [1, *strides], [1, *dilations]
    return kernel, strides, dilations


def padding_mode(node, in_shape, kernel, strides, dilations, rank, allow_same=True):
    """(TFLite padding enum, explicit pads still to apply) for a window op."""
    in_dims = in_shape[1:3]
    pads = spatial_pads(node, in_dims if rank == 4 else in_dims[1:], kernel[-(rank - 2) :], strides[-(rank - 2) :],
                        dilations[-(rank - 2) :])  # fmt: skip
    if rank == 3:
        pads = [(0, 0), *pads]
    if not any(b or e for b, e in pads):
        return schema.Padding.VALID, pads
    if allow_same and tflite_same(in_dims, kernel, strides, dilations) == pads:
        return schema.Padding.SAME, [(0, 0)] * 2
    return schema.Padding.VALID, pads


@lower("Conv")
def lower_conv(ctx: LoweringContext, node: ir.Node) -> Value:
    """Conv(X, W, B): CONV_2D (groups allowed) or DEPTHWISE_CONV_2D, NHWC in and out."""
    x, weight, bias = ctx.input(node, 0), ctx.input(node, 1), ctx.input(node, 2)
    if x.rank not in (3, 4) or weight.rank != x.rank:
        raise Unsupported(f"rank-{x.rank} Conv (only 1-D and 2-D)")
    if weight.shape is None or weight.shape[0] is None:
        raise Unsupported("Conv weights of unknown shape")
    rank, group = x.rank, attr(node, "group", 1)
    kernel, strides, dilations = window_attrs(node, rank, weight.shape[2:])
    tensor, shape = as_nhwc_2d(ctx, x)
    mode, pads = padding_mode(node, shape, kernel, strides, dilations, rank)
    tensor, shape = pad_nhwc(ctx, tensor, shape, pads, x.dtype)
    if mode == schema.Padding.VALID:  # an IF branch for sizes this one is not: see short_windows.py
        tensor, shape = at_least_window(ctx, tensor, shape, kernel, dilations, x.dtype)
    images = tensor
    if may_be_empty(node.inputs[0], 0):  # a batch a loop filled, in an IF branch: short_windows.py
        tensor = at_least_one_image(ctx, tensor, shape, x.dtype)
    if rank == 3:
        weight = ctx.reshape(weight, (weight.shape[0], weight.shape[1], 1, weight.shape[2]))
    out_channels, channels = weight.shape[0], shape[3]
    depthwise = group > 1 and group == channels and weight.shape[1] == 1
    if bias is None:
        bias = ctx.const(np.zeros((out_channels,), dtype=x.dtype))
    if depthwise:
        options = schema.DepthwiseConv2DOptionsT()
        options.depthMultiplier = out_channels // channels
        code, filters = OPS.DEPTHWISE_CONV_2D, ctx.tensor(weight, (1, 2, 3, 0))
    else:
        options = schema.Conv2DOptionsT()
        code, filters = OPS.CONV_2D, ctx.tensor(weight, NHWC)
    options.padding, options.strideH, options.strideW = mode, strides[0], strides[1]
    options.dilationHFactor, options.dilationWFactor = dilations[0], dilations[1]
    onnx_out = out_shape(node)
    out4 = onnx_out if rank == 4 else (onnx_out[0], onnx_out[1], 1, onnx_out[2]) if onnx_out else None
    result = ctx.emit(code, [tensor, filters, ctx.native(bias)], out4, x.dtype, perm=NHWC, options=options)
    return from_nhwc_2d(ctx, batch_of(ctx, result, images, tensor), rank, onnx_out)


def pool(ctx: LoweringContext, node: ir.Node, code: int, fill: float | None, x: Value | None = None,
         include_pad: bool | None = None) -> Value:  # fmt: skip
    x = x or ctx.input(node, 0)
    rank = x.rank
    kernel, strides, dilations = window_attrs(node, rank or 0)
    if any(d != 1 for d in dilations):
        raise Unsupported("pooling with dilations")
    if len(node.outputs) > 1 and node.outputs[1].name:
        raise Unsupported("MaxPool's Indices output")
    tensor, shape = as_nhwc_2d(ctx, x)
    if include_pad is None:
        include_pad = code == OPS.AVERAGE_POOL_2D and attr(node, "count_include_pad", 0)
    mode, pads = padding_mode(node, shape, kernel, strides, dilations, rank, allow_same=not include_pad)
    onnx_out = out_shape(node)
    out4 = onnx_out if rank == 4 else (onnx_out[0], onnx_out[1], 1, onnx_out[2])
    if attr(node, "ceil_mode", 0) and any(size is None for size in shape[1:3]):
        if not any(b or e for b, e in pads) and all(k >= s for k, s in zip(kernel, strides)):
            return from_nhwc_2d(ctx, ceil_windows(ctx, code, tensor, shape, kernel, strides, out4, x.dtype),
                                rank, onnx_out)  # fmt: skip
        mode, pads = dynamic_ceil_mode(pads, kernel, strides)
    elif mode == schema.Padding.VALID:
        pads = ceil_pads(pads, shape[1:3], out4[2:], kernel, strides)
    exclude = code == OPS.AVERAGE_POOL_2D and not include_pad
    if exclude and any(b or e for b, e in pads):
        return from_nhwc_2d(
            ctx, average_excluding_pads(ctx, node, tensor, shape, pads, kernel, strides, out4), rank, onnx_out
        )
    if code == OPS.MAX_POOL_2D and x.nonnegative:
        fill = None  # zeros never win against values >= 0, and PAD (unlike PADV2) stays in XNNPACK
    tensor, shape = pad_nhwc(ctx, tensor, shape, pads, x.dtype, fill)
    options = schema.Pool2DOptionsT()
    options.padding, options.strideH, options.strideW = mode, strides[0], strides[1]
    options.filterHeight, options.filterWidth = kernel[0], kernel[1]
    result = ctx.emit(code, [tensor], out4, x.dtype, perm=NHWC, options=options)
    return from_nhwc_2d(ctx, result, rank, onnx_out)


def dynamic_ceil_mode(pads, kernel, strides):
    """ceil_mode over a dynamic spatial size: SAME padding gives ceil(L / s) windows, the last one
    overhanging the end and averaged over its in-bounds part only, exactly ceil_mode's windows when
    the kernel equals a stride of at most 2 and there is no explicit padding (SAME would otherwise
    start padding before the first element)."""
    if any(b or e for b, e in pads) or any(k != s or s > 2 for k, s in zip(kernel, strides)):
        raise Unsupported(
            "ceil_mode pooling over a dynamic spatial size (only kernel == stride <= 2, no pads)"
        )
    return schema.Padding.SAME, [(0, 0)] * len(pads)


def ceil_windows(ctx, code, tensor, shape, kernel, strides, out4, dtype) -> Value:
    """ceil_mode pooling over a run-time size, no explicit pads, kernel >= stride: ``s - 1`` cells
    appended at each spatial end give exactly ceil_mode's windows under VALID padding (the last one
    overhanging); a max pads with the lowest float, an average is divided by the share of each
    window inside the input (the same pool over ones), as PyTorch averages an overhanging window."""
    pads = [(0, s - 1) for s in strides]
    lowest = float(np.finfo(np.float32).min) if code == OPS.MAX_POOL_2D else None
    padded, _ = pad_nhwc(ctx, tensor, shape, pads, dtype, lowest)
    options = schema.Pool2DOptionsT()
    options.padding, options.strideH, options.strideW = schema.Padding.VALID, strides[0], strides[1]
    options.filterHeight, options.filterWidth = kernel[0], kernel[1]
    pooled = ctx.emit(code, [padded], out4, dtype, perm=NHWC, options=options)
    if code == OPS.MAX_POOL_2D:
        return pooled
    dims_options = schema.ShapeOptionsT()
    dims_options.outType = schema.TensorType.INT32
    dims = ctx.new_tensor((4,), np.int32, name="pool_in_shape")
    ctx.sg.add_op(OPS.SHAPE, [tensor], [dims], dims_options)
    ones = ctx.new_tensor(shape, dtype, name="ones")
    ctx.sg.add_op(OPS.FILL, [dims, ctx.tensor(ctx.const(np.array(1, dtype)))], [ones], schema.FillOptionsT())
    ones, _ = pad_nhwc(ctx, ones, shape, pads, dtype)
    share = ctx.emit(code, [ones], out4, dtype, perm=NHWC, options=options)
    return ctx.emit(
        OPS.DIV, [pooled.tensor, share.tensor], out4, dtype, perm=NHWC, options=schema.DivOptionsT()
    )


def ceil_pads(pads, in_dims, out_dims, kernel, strides):
    """Extra end padding so that a VALID window op yields ``out_dims`` (ceil_mode)."""
    result = []
    for (b, e), size, out, k, s in zip(pads, in_dims, out_dims, kernel, strides):
        if size is not None and out is not None:
            e = max(e, (out - 1) * s + k - size - b)
        result.append((b, e))
    return result


def average_excluding_pads(ctx, node, tensor, shape, pads, kernel, strides, out4) -> Value:
    """AVERAGE_POOL_2D over zero-padded input, rescaled by the true count of each window."""
    if any(d is None for d in shape[1:3]):
        raise Unsupported("AveragePool excluding pads with dynamic spatial dims")
    padded, padded_shape = pad_nhwc(ctx, tensor, shape, pads, np.float32)
    ones = np.pad(np.ones(shape[1:3], np.float32), pads)
    counts = np.zeros(out4[2:], np.float32)
    for i in range(out4[2]):
        for j in range(out4[3]):
            window = ones[
                i * strides[0] : i * strides[0] + kernel[0], j * strides[1] : j * strides[1] + kernel[1]
            ]
            counts[i, j] = window.sum()
    options = schema.Pool2DOptionsT()
    options.padding, options.strideH, options.strideW = schema.Padding.VALID, strides[0], strides[1]
    options.filterHeight, options.filterWidth = kernel[0], kernel[1]
    mean = ctx.emit(OPS.AVERAGE_POOL_2D, [padded], out4, np.float32, perm=NHWC, options=options)
    scale = ctx.const((kernel[0] * kernel[1] / counts).reshape(1, *counts.shape, 1).astype(np.float32))
    return ctx.emit(
        OPS.MUL, [mean.tensor, ctx.tensor(scale)], out4, np.float32, perm=NHWC, options=schema.MulOptionsT()
    )


@lower("MaxPool")
def lower_max_pool(ctx: LoweringContext, node: ir.Node) -> Value:
    """MaxPool(X): MAX_POOL_2D; explicit pads are filled with the lowest float."""
    return pool(ctx, node, OPS.MAX_POOL_2D, float(np.finfo(np.float32).min))


@lower("AveragePool")
def lower_average_pool(ctx: LoweringContext, node: ir.Node) -> Value:
    """AveragePool(X): AVERAGE_POOL_2D; count_include_pad=0 with pads rescales per window."""
    return pool(ctx, node, OPS.AVERAGE_POOL_2D, None)


@lower("GlobalAveragePool", "GlobalMaxPool")
def lower_global_pool(ctx: LoweringContext, node: ir.Node) -> Value:
    """Mean/max over all spatial dims, kept as size 1 (MEAN / REDUCE_MAX in channels-last)."""
    x = ctx.input(node, 0)
    if x.rank is None or x.rank < 3:
        raise Unsupported("global pooling needs a known rank >= 3")
    perm = channels_last(x.rank)
    options = schema.ReducerOptionsT()
    options.keepDims = True
    code = OPS.MEAN if node.op_type == "GlobalAveragePool" else OPS.REDUCE_MAX
    axes = ctx.int32_tensor(list(range(1, x.rank - 1)))
    shape = (*x.shape[:2], *([1] * (x.rank - 2)))
    return ctx.emit(code, [ctx.tensor(x, perm), axes], shape, x.dtype, perm=perm, options=options)


@lower("LpPool")
def lower_lp_pool(ctx: LoweringContext, node: ir.Node) -> Value:
    """(sum over the window of |x|^p)^(1/p): an AVERAGE_POOL_2D of |x|^p (pads count as 0) times the window size."""
    from deploy.runtimes.tflite.ops._common import elementwise_values, unary_values

    x = ctx.input(node, 0)
    p = attr(node, "p", 2)
    size = float(np.prod(attr(node, "kernel_shape")))
    powered = unary_values(ctx, OPS.SQUARE, x) if p == 2 else elementwise_values(
        ctx, OPS.POW, unary_values(ctx, OPS.ABS, x), ctx.const(np.array(p, x.dtype)))  # fmt: skip
    mean = pool(ctx, node, OPS.AVERAGE_POOL_2D, None, x=powered, include_pad=True)
    total = elementwise_values(ctx, OPS.MUL, mean, ctx.const(np.array(size, x.dtype)))
    if p == 2:
        return unary_values(ctx, OPS.SQRT, total)
    return elementwise_values(ctx, OPS.POW, total, ctx.const(np.array(1.0 / p, x.dtype)))
