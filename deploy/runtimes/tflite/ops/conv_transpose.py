"""ConvTranspose -> TRANSPOSE_CONV (VALID, full output) followed by a crop for the ONNX pads.

Dilation is folded into the kernel (zeros between taps), output_padding and output_shape
only change the crop window; 1-D runs as 2-D with a unit height.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops import conv_transpose_dynamic as dynamic
from deploy.runtimes.tflite.ops._common import attr, elementwise_values, out_shape
from deploy.runtimes.tflite.ops.conv_pool import NHWC, as_nhwc_2d, from_nhwc_2d, pad_nhwc
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value


def dilate_kernel(weight: np.ndarray, dilations: list[int]) -> np.ndarray:
    """[C_in, C_out, kh, kw] with (d - 1) zeros between taps: a dilated kernel as a plain one."""
    if all(d == 1 for d in dilations):
        return weight
    kh, kw = weight.shape[2:]
    out = np.zeros(
        (*weight.shape[:2], (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1), weight.dtype
    )
    out[:, :, :: dilations[0], :: dilations[1]] = weight
    return out


def crop_window(node: ir.Node, in_dims, kernel, strides, out_dims) -> list[int]:
    """The begin offset per ONNX spatial dim of the output inside the full (VALID) output."""
    n = len(kernel)
    auto_pad = attr(node, "auto_pad", "NOTSET")
    pads = attr(node, "pads")
    extra = attr(node, "output_padding") or [0] * n
    begins = []
    for i in range(n):
        if pads is not None and auto_pad == "NOTSET" and attr(node, "output_shape") is None:
            begins.append(pads[i])
            continue
        total = strides[i] * (in_dims[i] - 1) + kernel[i] + extra[i] - out_dims[i]
        begins.append(total // 2 if auto_pad == "SAME_UPPER" else total - total // 2)
    return begins


def weights_4d(ctx: LoweringContext, weight: Value, rank: int, dilations: list[int]) -> Value:
    """[C_in, C_out/group, kh, kw] weights (1-D gets a unit height; dilation folded in when constant)."""
    if weight.const is not None:
        return ctx.const(dilate_kernel(weight.const if rank == 4 else weight.const[:, :, None, :], dilations))
    if any(d != 1 for d in dilations):
        raise Unsupported("ConvTranspose with dilations and run-time weights")
    return (
        weight if rank == 4 else ctx.reshape(weight, (weight.shape[0], weight.shape[1], 1, weight.shape[2]))
    )


def split_channels(ctx: LoweringContext, tensor: int, shape, groups: int) -> list[int]:
    """SPLIT an NHWC tensor into ``groups`` along its channels."""
    if groups == 1:
        return [tensor]
    options = schema.SplitOptionsT()
    options.numSplits = groups
    parts = [ctx.new_tensor((*shape[:3], shape[3] // groups), np.float32) for _ in range(groups)]
    ctx.sg.add_op(OPS.SPLIT, [ctx.int32_tensor(np.array(3)), tensor], parts, options)
    return parts


def group_weights(ctx: LoweringContext, w: Value, groups: int) -> list[Value]:
    if groups == 1:
        return [w]
    size = w.shape[0] // groups
    if w.const is not None:
        return [ctx.const(w.const[g * size : (g + 1) * size]) for g in range(groups)]
    options = schema.SplitOptionsT()
    options.numSplits = groups
    shape = (size, *w.shape[1:])
    return ctx.emit_multi(OPS.SPLIT, [ctx.int32_tensor(np.array(0)), ctx.native(w)], [(shape, w.dtype)] * groups,
                          options=options)  # fmt: skip


@lower("ConvTranspose")
def lower_conv_transpose(ctx: LoweringContext, node: ir.Node) -> Value:
    """ConvTranspose(X, W, B) for 1-D/2-D inputs: one TRANSPOSE_CONV per group, then the ONNX crop."""
    x, weight, bias = ctx.input(node, 0), ctx.input(node, 1), ctx.input(node, 2)
    if not weight.static or x.rank not in (3, 4):
        raise Unsupported("ConvTranspose needs static weights and a 1-D/2-D input")
    rank, groups = x.rank, attr(node, "group", 1)
    n = rank - 2
    dilations = list(attr(node, "dilations", [1] * n))
    strides = list(attr(node, "strides", [1] * n))
    if rank == 3:
        dilations, strides = [1, *dilations], [1, *strides]
    w_value = weights_4d(ctx, weight, rank, dilations)
    tensor, shape = as_nhwc_2d(ctx, x)
    onnx_out = out_shape(node)
    if None in shape[1:3]:
        if not dynamic.supported(node, groups):
            raise Unsupported("ConvTranspose with dynamic spatial dims (groups, output_padding or auto_pad)")
        kernel = list(w_value.shape[2:])
        per_group = w_value.shape[1]
        out, out_nhwc = dynamic.transpose_conv(
            ctx, node, tensor, shape, ctx.tensor(w_value, (1, 2, 3, 0)), kernel, strides, per_group
        )
        result = Value("convT", (out_nhwc[0], per_group, *out_nhwc[1:3]), x.dtype, tensor=out, perm=NHWC)
        if bias is not None:
            result = elementwise_values(ctx, OPS.ADD, result, ctx.reshape(bias, (per_group, 1, 1)))
        return from_nhwc_2d(ctx, result, rank, onnx_out)
    out4 = onnx_out if rank == 4 else (onnx_out[0], onnx_out[1], 1, onnx_out[2])
    kernel = list(w_value.shape[2:])
    full = [strides[i] * (shape[1 + i] - 1) + kernel[i] for i in range(2)]
    per_group = w_value.shape[1]
    options = schema.TransposeConvOptionsT()
    options.padding, options.strideH, options.strideW = schema.Padding.VALID, strides[0], strides[1]
    parts = []
    for part, w_part in zip(split_channels(ctx, tensor, shape, groups), group_weights(ctx, w_value, groups)):
        inputs = [ctx.int32_tensor([shape[0], *full, per_group]), ctx.tensor(w_part, (1, 2, 3, 0)), part, -1]
        out = ctx.new_tensor((shape[0], *full, per_group), x.dtype)
        ctx.sg.add_op(OPS.TRANSPOSE_CONV, inputs, [out], options)
        parts.append(out)
    if groups > 1:
        concat = schema.ConcatenationOptionsT()
        concat.axis = 3
        joined = ctx.new_tensor((shape[0], *full, per_group * groups), x.dtype)
        ctx.sg.add_op(OPS.CONCATENATION, parts, [joined], concat)
        parts = [joined]
    result = Value("convT", (shape[0], per_group * groups, *full), x.dtype, tensor=parts[0], perm=NHWC)
    begins = crop_window(
        node, [shape[1 + i] for i in range(2)][-n:], kernel[-n:], strides[-n:], list(out4[2:])[-n:]
    )
    if rank == 3:
        begins = [0, *begins]
    result = crop(ctx, result, begins, list(out4[2:]))
    if bias is not None:
        result = elementwise_values(ctx, OPS.ADD, result, ctx.reshape(bias, (per_group * groups, 1, 1)))
    return from_nhwc_2d(ctx, result, rank, onnx_out)


def crop(ctx: LoweringContext, value: Value, begins: list[int], sizes: list[int]) -> Value:
    """value[:, :, b:b+size] per spatial dim (NHWC tensor), zero-padding past its end."""
    n, c, h, w = value.shape
    tensor, shape = value.tensor, (n, h, w, c)
    ends = [b + s for b, s in zip(begins, sizes)]
    extra = [(0, max(0, e - d)) for e, d in zip(ends, (h, w))]
    tensor, shape = pad_nhwc(ctx, tensor, shape, extra, value.dtype)
    begin = [0, *begins, 0]
    size = [n, *sizes, c]
    out = ctx.new_tensor(tuple(size), value.dtype, name="crop")
    ctx.sg.add_op(
        OPS.SLICE, [tensor, ctx.int32_tensor(begin), ctx.int32_tensor(size)], [out], schema.SliceOptionsT()
    )
    return Value(ctx.sg.tensors[out].name, (n, c, *sizes), value.dtype, tensor=out, perm=NHWC)
