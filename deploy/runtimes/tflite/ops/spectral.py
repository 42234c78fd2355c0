"""DFT as one FULLY_CONNECTED: the transform is linear in the (real, imaginary) input.

Its [out, in] matrix is derived by running the ONNX reference DFT on basis signals, so
forward, inverse, one-sided and dft_length follow the ONNX definition exactly.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, norm_axis, out_shape
from deploy.runtimes.tflite.ops.spectral_dynamic import (
    dynamic_dft_applies,
    lower_dynamic_dft,
    lower_dynamic_inverse_dft,
)
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value, ints

MAX_WEIGHTS = 1 << 22


def transform_matrix(node: ir.Node, n: int, components: int, length: int | None, opset: int) -> np.ndarray:
    """[K * c_out, n * c] matrix of the DFT along axis 1 of a [batch, n, c] signal."""
    from onnx.reference import ReferenceEvaluator

    probes = np.eye(n * components, dtype=np.float32).reshape(n * components, n, components)
    attributes = {k: attr(node, k) for k in ("inverse", "onesided") if k in node.attributes}
    inputs, initializers = ["x"], []
    if length is not None:
        initializers.append(onnx.numpy_helper.from_array(np.array(length, np.int64), "length"))
    inputs.append("length" if length is not None else "")
    if opset >= 20:
        initializers.append(onnx.numpy_helper.from_array(np.array(1, np.int64), "axis"))
        inputs.append("axis")
    else:
        attributes["axis"] = 1
    dft = onnx.helper.make_node("DFT", inputs, ["y"], **attributes)
    graph = onnx.helper.make_graph([dft], "dft", [onnx.helper.make_tensor_value_info("x", 1, probes.shape)],
                                   [onnx.helper.make_empty_tensor_value_info("y")], initializers)  # fmt: skip
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", opset)])
    response = ReferenceEvaluator(model).run(None, {"x": probes})[0]
    return response.reshape(n * components, -1).T.astype(np.float32)


@lower("DFT")
def lower_dft(ctx: LoweringContext, node: ir.Node) -> Value:
    """DFT(input, dft_length, axis) of a static length with a constant axis/length (one other dim
    may be a run-time size: the rows of the matrix product)."""
    x = ctx.input(node, 0)
    opset = ctx.options.get("opset", 20)
    length_v = ctx.input(node, 1) if len(node.inputs) > 1 else None
    if opset >= 20:
        axis_v = ctx.input(node, 2) if len(node.inputs) > 2 else None
        axis = -2 if axis_v is None else ints(axis_v, "axis")[0]
    else:
        axis = attr(node, "axis", 1)
    rank = x.rank
    axis = norm_axis(axis, rank)
    if axis == rank - 1:
        raise Unsupported("DFT along the component axis")
    if dynamic_dft_applies(node, x, axis, length_v):  # a run-time length (spectral_dynamic.py)
        if attr(node, "inverse", 0):
            return lower_dynamic_inverse_dft(ctx, x, axis, length_v)
        return lower_dynamic_dft(ctx, x, axis, bool(attr(node, "onesided", 0)), length_v)
    if x.dtype != np.float32 or x.shape[axis] is None or x.shape[-1] is None:
        raise Unsupported("DFT of a non-float32 signal, or of a run-time length to invert")
    if sum(d is None for d in x.shape) > 1:
        raise Unsupported("DFT of a signal with two run-time sizes")
    length = None if length_v is None else ints(length_v, "dft_length")[0]
    n, components = x.shape[axis], x.shape[-1]
    matrix = transform_matrix(node, n, components, length, min(opset, 20) if opset >= 20 else max(opset, 17))
    if matrix.size > MAX_WEIGHTS:
        raise Unsupported("DFT too long for a dense transform matrix")
    shape = out_shape(node)
    k_out = matrix.shape[0]
    c_out = shape[-1] if shape else (1 if k_out % 2 else 2)
    rest = [i for i in range(rank - 1) if i != axis]
    perm = (*rest, axis, rank - 1)
    tensor = ctx.tensor(x, perm)
    lead = tuple(x.shape[i] for i in rest)
    flat = ctx.reshape_tensor(tensor, (*lead, n * components), x.dtype)
    options = schema.FullyConnectedOptionsT()
    options.keepNumDims = True
    out = ctx.new_tensor((*lead, k_out), np.float32, name="dft")
    ctx.sg.add_op(OPS.FULLY_CONNECTED, [flat, ctx.tensor(ctx.const(matrix)), -1], [out], options)
    result = ctx.reshape_tensor(out, (*lead, k_out // c_out, c_out), np.float32)
    onnx_shape = list(x.shape)
    onnx_shape[axis], onnx_shape[-1] = k_out // c_out, c_out
    return Value(
        ctx.sg.tensors[result].name, tuple(onnx_shape), np.dtype(np.float32), tensor=result, perm=perm
    )
