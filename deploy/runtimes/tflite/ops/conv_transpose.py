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
    """The begin offset per spatial dim of the ONNX output inside the full (VALID) output."""
    n = len(kernel)
    auto_pad = attr(node, "auto_pad", "NOTSET")
    pads = attr(node, "pads")
    begins = []
    for i in range(n):
        full = strides[i] * (in_dims[i] - 1) + kernel[i]
        extra = (attr(node, "output_padding", [0] * n) or [0] * n)[i]
        if pads is not None and auto_pad == "NOTSET" and attr(node, "output_shape") is None:
            begins.append(pads[i])
            continue
        total = full + extra - out_dims[i]
        begins.append(total // 2 if auto_pad == "SAME_UPPER" else total - total // 2)
    return begins


@lower("ConvTranspose")
def lower_conv_transpose(ctx: LoweringContext, node: ir.Node) -> Value:
    """ConvTranspose(X, W, B) for 1-D/2-D, group 1, constant weights."""
    x, weight, bias = ctx.input(node, 0), ctx.input(node, 1), ctx.input(node, 2)
    if attr(node, "group", 1) != 1 or not weight.static or x.rank not in (3, 4):
        raise Unsupported("ConvTranspose needs group=1, static weights and a 1-D/2-D input")
    rank = x.rank
    n = rank - 2
    dilations = list(attr(node, "dilations", [1] * n))
    strides = list(attr(node, "strides", [1] * n))
    if rank == 3:
        dilations, strides = [1, *dilations], [1, *strides]
    if weight.const is not None:
        w_value = ctx.const(
            dilate_kernel(weight.const if rank == 4 else weight.const[:, :, None, :], dilations)
        )
    elif any(d != 1 for d in dilations):
        raise Unsupported("ConvTranspose with dilations and run-time weights")
    else:
        w_value = (
            weight
            if rank == 4
            else ctx.reshape(weight, (weight.shape[0], weight.shape[1], 1, weight.shape[2]))
        )
    w = np.zeros(w_value.shape, np.float32)  # shape only
    tensor, shape = as_nhwc_2d(ctx, x)
    if None in shape[1:3]:
        raise Unsupported("ConvTranspose with dynamic spatial dims")
    onnx_out = out_shape(node)
    out4 = onnx_out if rank == 4 else (onnx_out[0], onnx_out[1], 1, onnx_out[2])
    kernel = list(w.shape[2:])
    full = [strides[i] * (shape[1 + i] - 1) + kernel[i] for i in range(2)]
    out_channels = w.shape[1]
    options = schema.TransposeConvOptionsT()
    options.padding, options.strideH, options.strideW = schema.Padding.VALID, strides[0], strides[1]
    filters = ctx.tensor(w_value, (1, 2, 3, 0))
    full_shape = (shape[0], full[0], full[1], out_channels)
    inputs = [ctx.int32_tensor(list(full_shape)), filters, tensor, -1]
    result = ctx.emit(
        OPS.TRANSPOSE_CONV, inputs, (shape[0], out_channels, *full), x.dtype, perm=NHWC, options=options
    )
    begins = crop_window(node, [shape[1], shape[2]], kernel, strides, list(out4[2:]))
    if rank == 3:
        begins = [0, *begins[-1:]] if len(begins) == 1 else begins
    result = crop(ctx, result, begins, list(out4[2:]))
    if bias is not None:
        result = elementwise_values(ctx, OPS.ADD, result, ctx.reshape(bias, (out_channels, 1, 1)))
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
