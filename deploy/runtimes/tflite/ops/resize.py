"""Resize / Upsample of NCHW images: RESIZE_BILINEAR or RESIZE_NEAREST_NEIGHBOR in NHWC.

The ONNX coordinate transformation modes TFLite implements are mapped to its two flags
(align_corners, half_pixel_centers); the others (cubic, tf_crop_and_resize, antialias,
round-half-up on asymmetric coordinates) are rejected with the reason.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, out_shape
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value

NHWC = (0, 2, 3, 1)
# (mode, coordinate mode, nearest mode) -> (align_corners, half_pixel_centers)
FLAGS = {
    ("linear", "half_pixel", None): (False, True),
    ("linear", "pytorch_half_pixel", None): (False, True),
    ("linear", "align_corners", None): (True, False),
    ("linear", "asymmetric", None): (False, False),
    ("nearest", "asymmetric", "floor"): (False, False),
    ("nearest", "half_pixel", "round_prefer_ceil"): (False, True),
    ("nearest", "pytorch_half_pixel", "round_prefer_ceil"): (False, True),
    ("nearest", "align_corners", "round_prefer_ceil"): (True, False),
}


def output_size(ctx: LoweringContext, node: ir.Node, x: Value) -> tuple[list[int], bool]:
    """The output (H, W), from shape inference or from constant scales/sizes, and False; or, for
    whole-number scales over run-time sizes, the scales and True."""
    shape = out_shape(node)
    if node.op_type == "Resize":
        scales_v = ctx.input(node, 2)
        if scales_v is not None and scales_v.const is None:
            raise Unsupported("Resize with run-time scales")
        if scales_v is not None and scales_v.const.size and shape is not None:
            # TFLite maps coordinates with in/out; ONNX with 1/scale: they agree only when in*scale is whole.
            whole = all(float(s).is_integer() and s >= 1 for s in scales_v.const[-2:])
            if any(d is None and not whole for d in x.shape[2:]) or any(
                d is not None and o is not None and d * s != o
                for d, s, o in zip(x.shape[2:], scales_v.const[-2:], shape[2:])
            ):
                raise Unsupported("Resize whose scales do not give whole output sizes")
            if None in x.shape[2:]:  # whole scales on run-time sizes: sizes computed in the graph
                return [int(s) for s in scales_v.const[-2:]], True
    if shape is not None and None not in shape[2:]:
        if shape[:2] != x.shape[:2] and None not in x.shape[:2]:
            raise Unsupported("Resize of the batch or channel dims")
        return list(shape[2:]), False
    if node.op_type == "Upsample":
        scales = attr(node, "scales") or list(ctx.input(node, 1).const)
        sizes = None
    else:
        scales_v, sizes_v = ctx.input(node, 2), ctx.input(node, 3)
        scales = (
            None
            if scales_v is None or scales_v.const is None or scales_v.const.size == 0
            else list(scales_v.const)
        )
        sizes = None if sizes_v is None or sizes_v.const is None else [int(v) for v in sizes_v.const]
    if sizes is not None:
        return sizes[-2:], False
    if scales is None or None in x.shape[2:]:
        raise Unsupported("Resize with run-time scales/sizes")
    return [int(np.floor(d * s)) for d, s in zip(x.shape[2:], scales[-2:])], False


@lower("Resize", "Upsample")
def lower_resize(ctx: LoweringContext, node: ir.Node) -> Value:
    """Resize(X, roi, scales, sizes): native RESIZE_* when TFLite has the mode, else per-axis matrices."""
    from deploy.runtimes.tflite.ops.resize_matrix import matrix_resize
    from deploy.runtimes.tflite.ops.resize_runtime import runtime_resize

    reasons = []
    for method in (halving_resize, native_resize, matrix_resize, runtime_resize):
        try:
            return method(ctx, node)
        except Unsupported as exc:
            reasons.append(str(exc))
    raise Unsupported("; ".join(dict.fromkeys(reasons)))


def halving_resize(ctx: LoweringContext, node: ir.Node) -> Value:
    """A bilinear Resize by exactly 0.5 with half-pixel coordinates over run-time sizes: each output
    pixel sits halfway between two input pixels on each axis (source 2 * i + 0.5), so it is their
    mean, a 2x2 AVERAGE_POOL_2D with stride 2 (VALID: an odd last row is dropped, as floor(H / 2)
    drops it). TFLite's RESIZE_BILINEAR would map coordinates with in/out, not the scale."""
    x = ctx.input(node, 0)
    scales = ctx.input(node, 2) if node.op_type == "Resize" and len(node.inputs) > 2 else None
    if (
        x.rank != 4
        or None not in x.shape[2:]
        or scales is None
        or scales.const is None
        or list(scales.const) != [1.0, 1.0, 0.5, 0.5]
        or attr(node, "mode", "nearest") != "linear"
        or attr(node, "coordinate_transformation_mode", "half_pixel")
        not in ("half_pixel", "pytorch_half_pixel")
        or attr(node, "antialias", 0)
    ):
        raise Unsupported("not a bilinear halving over run-time sizes")
    options = schema.Pool2DOptionsT()
    options.padding, options.strideH, options.strideW = schema.Padding.VALID, 2, 2
    options.filterHeight, options.filterWidth = 2, 2
    shape = (*x.shape[:2], *(None if d is None else d // 2 for d in x.shape[2:]))
    return ctx.emit(OPS.AVERAGE_POOL_2D, [ctx.tensor(x, NHWC)], shape, x.dtype, perm=NHWC, options=options)


def native_resize(ctx: LoweringContext, node: ir.Node) -> Value:
    """RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR over the two spatial dims of an NCHW tensor."""
    x = ctx.input(node, 0)
    if x.rank != 4:
        raise Unsupported(f"Resize of a rank-{x.rank} tensor (only NCHW images)")
    mode = attr(node, "mode", "nearest")
    if node.op_type == "Upsample":
        coordinates, nearest = "asymmetric", "floor"
    else:
        coordinates = attr(node, "coordinate_transformation_mode", "half_pixel")
        nearest = attr(node, "nearest_mode", "round_prefer_floor")
        if attr(node, "antialias", 0) or attr(node, "keep_aspect_ratio_policy", "stretch") != "stretch":
            raise Unsupported("Resize with antialias or keep_aspect_ratio_policy")
        if attr(node, "axes") not in (None, [2, 3], [-2, -1]):
            raise Unsupported("Resize over non-spatial axes")
    key = (mode, coordinates, nearest if mode == "nearest" else None)
    if key not in FLAGS:
        raise Unsupported(
            f"Resize mode={mode} coordinate_transformation_mode={coordinates} nearest_mode={nearest}"
        )
    align, half = FLAGS[key]
    runtime_sizes = _runtime_sizes(ctx, node)
    if runtime_sizes is not None:  # sizes computed by the graph: TFLite maps with in/out as ONNX does
        size, scaled = [None, None], False
    else:
        size, scaled = output_size(ctx, node, x)
    if mode == "linear":
        code, options = OPS.RESIZE_BILINEAR, schema.ResizeBilinearOptionsT()
    else:
        code, options = OPS.RESIZE_NEAREST_NEIGHBOR, schema.ResizeNearestNeighborOptionsT()
    options.alignCorners, options.halfPixelCenters = align, half
    if scaled:  # (H, W) * whole scales at run time; TFLite's in/out mapping is then ONNX's 1/scale
        shape = (*x.shape[:2], *(d * s if d is not None else None for d, s in zip(x.shape[2:], size)))
        sizes = _scaled_sizes(ctx, x, size)
    elif runtime_sizes is not None:
        shape = (*x.shape[:2], *(out_shape(node) or (None,) * 4)[2:])
        sizes = runtime_sizes
    else:
        shape = (*x.shape[:2], *size)
        sizes = ctx.int32_tensor(size)
    return ctx.emit(code, [ctx.tensor(x, NHWC), sizes], shape, x.dtype, perm=NHWC, options=options)


def _runtime_sizes(ctx: LoweringContext, node: ir.Node) -> int | None:
    """An int32 [H, W] tensor from a Resize's run-time ``sizes`` input (N, C, H, W); None otherwise."""
    if node.op_type != "Resize" or len(node.inputs) < 4 or node.inputs[3] is None:
        return None
    sizes = ctx.input(node, 3)
    if sizes is None or sizes.const is not None or sizes.shape != (4,):
        return None
    gather = schema.GatherOptionsT()
    gather.axis = 0
    spatial = ctx.emit(
        OPS.GATHER, [ctx.native(sizes), ctx.int32_tensor([2, 3])], (2,), sizes.dtype, options=gather
    )
    return ctx.native(ctx.cast(spatial, np.int32))


def _scaled_sizes(ctx: LoweringContext, x: Value, scales: list[int]) -> int:
    """An int32 tensor [H * scale_h, W * scale_w] from ``x``'s run-time shape."""
    shape = ctx.shape_of(x, "int32")
    gather = schema.GatherOptionsT()
    gather.axis = 0
    spatial = ctx.emit(
        OPS.GATHER, [ctx.native(shape), ctx.int32_tensor([2, 3])], (2,), np.int32, options=gather
    )
    mul = schema.MulOptionsT()
    return ctx.emit(OPS.MUL, [spatial.tensor, ctx.int32_tensor(scales)], (2,), np.int32, options=mul).tensor
