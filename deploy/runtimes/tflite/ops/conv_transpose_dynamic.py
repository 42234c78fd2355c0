"""ConvTranspose over run-time spatial sizes (a 1-D decoder over a signal of any length).

TRANSPOSE_CONV takes its output shape as an operand, so it is computed at run time from the input's
SHAPE: ``stride * (in - 1) + kernel`` per spatial dim (the VALID, full output). The ONNX pads are
then cut from both ends with STRIDED_SLICE (a begin offset and a negative end), which needs no
output size. Only explicit pads (auto_pad NOTSET), no output_padding or output_shape, one group.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr
from deploy.runtimes.tflite.values import Unsupported


def supported(node: ir.Node, groups: int) -> bool:
    extra = attr(node, "output_padding") or []
    return (
        groups == 1
        and attr(node, "auto_pad", "NOTSET") == "NOTSET"
        and attr(node, "output_shape") is None
        and not any(extra)
    )


def transpose_conv(
    ctx: LoweringContext, node: ir.Node, tensor: int, shape, weights: int, kernel, strides, channels
):
    """The cropped NHWC output of TRANSPOSE_CONV(weights, tensor) for run-time spatial sizes; returns
    (tensor index, NHWC shape with None for run-time dims)."""
    rank = len(kernel)
    pads = list(attr(node, "pads") or [0] * (2 * rank))
    if any(p < 0 for p in pads):  # refused before any operator is written
        raise Unsupported("ConvTranspose with negative pads over run-time sizes")
    options = schema.ShapeOptionsT()
    options.outType = schema.TensorType.INT32
    dims = ctx.new_tensor((4,), np.int32, name="in_shape")
    ctx.sg.add_op(OPS.SHAPE, [tensor], [dims], options)
    scaled = ctx.new_tensor((4,), np.int32, name="scaled")
    ctx.sg.add_op(OPS.MUL, [dims, ctx.int32_tensor([1, *strides, 0])], [scaled], schema.MulOptionsT())
    full_shape = ctx.new_tensor((4,), np.int32, name="full_shape")
    grow = [0, *(k - s for k, s in zip(kernel, strides)), channels]
    ctx.sg.add_op(OPS.ADD, [scaled, ctx.int32_tensor(grow)], [full_shape], schema.AddOptionsT())
    conv = schema.TransposeConvOptionsT()
    conv.padding, conv.strideH, conv.strideW = schema.Padding.VALID, strides[0], strides[1]
    spatial = [None if d is None else s * (d - 1) + k for d, s, k in zip(shape[1:3], strides, kernel)]
    full = ctx.new_tensor((shape[0], *spatial, channels), np.float32, name="convT")
    ctx.sg.add_op(OPS.TRANSPOSE_CONV, [full_shape, weights, tensor, -1], [full], conv)
    n = len(pads) // 2
    begins, ends = pads[:n], pads[n:]
    if n == 1:  # 1-D: the unit height is not cut
        begins, ends = [0, *begins], [0, *ends]
    cut = schema.StridedSliceOptionsT()
    cut.beginMask = 0b1001
    cut.endMask = 0b1001 | sum(1 << (1 + i) for i, e in enumerate(ends) if e == 0)
    out_spatial = [None if d is None else d - b - e for d, b, e in zip(spatial, begins, ends)]
    out = ctx.new_tensor((shape[0], *out_spatial, channels), np.float32, name="crop")
    inputs = [full, ctx.int32_tensor([0, *begins, 0]), ctx.int32_tensor([0, *(-e for e in ends), 0])]
    ctx.sg.add_op(OPS.STRIDED_SLICE, [*inputs, ctx.int32_tensor([1, 1, 1, 1])], [out], cut)
    return out, (shape[0], *out_spatial, channels)
