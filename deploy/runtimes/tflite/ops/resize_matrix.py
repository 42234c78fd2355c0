"""Resize as separable interpolation matrices: one FULLY_CONNECTED per resized axis.

ONNX Resize interpolates each axis independently and linearly in the data, so along
axis ``a`` it is ``y = W_a @ x`` for an [out, in] matrix ``W_a``. The matrices are
computed with the ONNX reference implementation applied to an identity, which makes
every mode exact (nearest with any rounding, linear, cubic, antialias, any coordinate
transformation, axes, keep_aspect_ratio_policy). Costs O(in x out) weights per axis.
"""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, elementwise_values, norm_axis
from deploy.runtimes.tflite.values import Unsupported, Value

MAX_WEIGHTS = 1 << 22


def _reference():
    try:
        from onnx.reference.ops import op_resize
    except ImportError as exc:  # pragma: no cover - depends on the onnx version
        raise Unsupported("this onnx version has no reference Resize to derive weights from") from exc
    return op_resize


def coefficient_function(node: ir.Node):
    op_resize = _reference()
    mode = attr(node, "mode", "nearest")
    antialias = attr(node, "antialias", 0)
    if mode == "nearest":
        nearest = attr(node, "nearest_mode", "round_prefer_floor") if node.op_type == "Resize" else "floor"
        return lambda ratio, scale: op_resize._nearest_coeffs(ratio, mode=nearest)
    if mode == "linear":
        return op_resize._linear_coeffs_antialias if antialias else op_resize._linear_coeffs
    if mode == "cubic":
        a = attr(node, "cubic_coeff_a", -0.75)
        function = op_resize._cubic_coeffs_antialias if antialias else op_resize._cubic_coeffs
        return lambda ratio, scale: function(ratio, scale, A=a)
    raise Unsupported(f"Resize mode {mode!r}")


def plan(ctx: LoweringContext, node: ir.Node, shape: tuple[int, ...]):
    """Per-axis (scale, output size, roi) as the reference computes them."""
    rank = len(shape)
    if node.op_type == "Upsample":
        scales_v = ctx.input(node, 1)
        scales = list(attr(node, "scales") or scales_v.const)
        sizes, roi, axes = None, None, list(range(rank))
    else:
        roi_v, scales_v, sizes_v = ctx.input(node, 1), ctx.input(node, 2), ctx.input(node, 3)
        for v in (roi_v, scales_v, sizes_v):
            if v is not None and v.const is None:
                raise Unsupported("Resize with run-time roi/scales/sizes")
        scales = None if scales_v is None or scales_v.const.size == 0 else [float(s) for s in scales_v.const]
        sizes = None if sizes_v is None or sizes_v.const.size == 0 else [int(s) for s in sizes_v.const]
        roi = None if roi_v is None or roi_v.const.size == 0 else [float(r) for r in roi_v.const]
        axes = [norm_axis(a, rank) for a in attr(node, "axes", list(range(rank)))]
    full_roi = [0.0] * rank + [1.0] * rank
    if roi is not None:
        for i, a in enumerate(axes):
            full_roi[a], full_roi[rank + a] = roi[i], roi[len(axes) + i]
    factor = [1.0] * rank
    out = list(shape)
    if sizes is not None:
        for i, a in enumerate(axes):
            factor[a], out[a] = sizes[i] / shape[a], sizes[i]
        policy = attr(node, "keep_aspect_ratio_policy", "stretch")
        if policy != "stretch":
            chosen = (min if policy == "not_larger" else max)(factor[a] for a in axes)
            for a in axes:
                factor[a], out[a] = chosen, int(chosen * shape[a] + 0.5)
    else:
        for i, a in enumerate(axes):
            factor[a] = scales[i] if len(scales) == len(axes) else scales[a]
            out[a] = int(factor[a] * shape[a])
    return axes, factor, out, full_roi


def axis_matrix(node: ir.Node, size: int, factor: float, out: int, roi, extrapolation: float):
    """(W [out, in], outside [out]) for one axis: rows of W are the interpolation weights."""
    op_resize = _reference()
    kwargs = dict(roi=roi, exclude_outside=bool(attr(node, "exclude_outside", 0)),
                  coordinate_transformation_mode=attr(node, "coordinate_transformation_mode", "half_pixel")
                  if node.op_type == "Resize" else "asymmetric")  # fmt: skip
    function = coefficient_function(node)
    weights = op_resize._interpolate_1d_along_axis(np.eye(size), 0, factor, out, function, extrapolation_value=0.0,
                                                   **kwargs)  # fmt: skip
    outside = None
    if extrapolation:
        probe = op_resize._interpolate_1d_along_axis(np.zeros((size, 1)), 0, factor, out, function,
                                                     extrapolation_value=1.0, **kwargs)  # fmt: skip
        outside = probe[:, 0]
    return np.asarray(weights, np.float64), outside


def matrix_resize(ctx: LoweringContext, node: ir.Node) -> Value:
    x = ctx.input(node, 0)
    if not x.static or x.dtype != np.float32:
        raise Unsupported("Resize (general modes) needs a static float32 input")
    axes, factor, out, roi = plan(ctx, node, x.shape)
    extrapolation = float(attr(node, "extrapolation_value", 0.0)) if node.op_type == "Resize" else 0.0
    result, shape, outside_any = x, list(x.shape), None
    for a in axes:
        axis_roi = [roi[a], roi[a + len(shape)]]
        if factor[a] == 1.0 and out[a] == shape[a] and axis_roi == [0.0, 1.0]:
            continue
        if shape[a] * out[a] > MAX_WEIGHTS:
            raise Unsupported("Resize too large for interpolation matrices")
        weights, outside = axis_matrix(node, shape[a], factor[a], out[a], axis_roi, extrapolation)
        result = along_axis(ctx, result, a, weights.astype(np.float32))
        shape[a] = out[a]
        if outside is not None:
            mask = outside.reshape([-1 if i == a else 1 for i in range(len(shape))])
            outside_any = mask if outside_any is None else 1 - (1 - outside_any) * (1 - mask)
    if outside_any is not None:
        fill = ctx.const((outside_any * extrapolation).astype(np.float32))
        result = elementwise_values(ctx, OPS.ADD, result, fill)
    return result


def along_axis(ctx: LoweringContext, x: Value, axis: int, weights: np.ndarray) -> Value:
    """FULLY_CONNECTED over ``axis`` (moved last in the layout, so no data is transposed twice)."""
    perm = tuple(p for p in (x.perm or range(x.rank)) if p != axis) + (axis,)
    options = schema.FullyConnectedOptionsT()
    options.keepNumDims = True
    shape = tuple(weights.shape[0] if i == axis else d for i, d in enumerate(x.shape))
    inputs = [ctx.tensor(x, perm), ctx.tensor(ctx.const(weights)), -1]
    return ctx.emit(OPS.FULLY_CONNECTED, inputs, shape, np.float32, perm=perm, options=options)
