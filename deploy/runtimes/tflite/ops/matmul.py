"""Matrix products: Gemm/MatMul with constant weights -> FULLY_CONNECTED, else BATCH_MATMUL.

FULLY_CONNECTED weights are laid out [out, in] here, once, at lowering time; a bias ADD
right after is folded into the op by ``fuse.py``.

XNNPACK fails to prepare a BATCH_MATMUL with no rows or no columns, and TFLite prepares both
branches of an IF at the sizes of the run (``xc @ V.T`` after a loop that kept no components, in
the branch for "some were kept"). A product whose rows or columns are a data-dependent size
(torch's unbacked ``u0``, which may be 0) gets one zero row / column padded on and cut off again.
"""

from __future__ import annotations

import re

import numpy as np
import onnx_ir as ir
from ai_edge_litert import schema_py_generated as schema

from deploy.runtimes.tflite.builder import OPS
from deploy.runtimes.tflite.context import LoweringContext
from deploy.runtimes.tflite.ops._common import attr, elementwise_values, out_shape, scalar
from deploy.runtimes.tflite.ops.reduction import reduce
from deploy.runtimes.tflite.ops.short_windows import exact_extent
from deploy.runtimes.tflite.registry import lower
from deploy.runtimes.tflite.values import Unsupported, Value


def fully_connected(
    ctx: LoweringContext, a: Value, weights: np.ndarray, bias: np.ndarray | None, shape
) -> Value:
    """FULLY_CONNECTED over the last dim of ``a`` with [out, in] weights, keeping leading dims; in a
    control-flow subgraph a run-time-sized last dim is read at the weights' size (exact_extent)."""
    a = exact_extent(ctx, a, -1, weights.shape[1])
    options = schema.FullyConnectedOptionsT()
    options.keepNumDims = a.rank != 2
    inputs = [ctx.native(a), ctx.tensor(ctx.const(np.ascontiguousarray(weights, dtype=np.float32)))]
    inputs.append(ctx.tensor(ctx.const(bias.astype(np.float32))) if bias is not None else -1)
    return ctx.emit(OPS.FULLY_CONNECTED, inputs, shape, np.float32, options=options)


def batch_matmul(
    ctx: LoweringContext, a: Value, b: Value, shape, adj_x=False, adj_y=False, empty=(False, False)
) -> Value:
    """BATCH_MATMUL; an operand whose layout already swaps its last two dims is used as is.
    ``empty``: whether the product's rows / columns may be 0 at run time (see the module doc)."""
    tensors = []
    adjoints = [adj_x, adj_y]
    for i, v in enumerate((a, b)):
        swap = tuple(range(v.rank - 2)) + (v.rank - 1, v.rank - 2) if v.rank >= 2 else None
        if v.const is None and v.perm is not None and v.perm == swap:
            tensors.append(v.tensor)
            adjoints[i] = not adjoints[i]
        else:
            tensors.append(ctx.native(v))
    options = schema.BatchMatMulOptionsT()
    options.adjX, options.adjY = adjoints
    if not any(empty):
        return ctx.emit(OPS.BATCH_MATMUL, tensors, shape, a.dtype, options=options)
    # rows of a are its dim -2 (-1 when adjoint), columns of b its dim -1 (-2 when adjoint)
    for i, (v, axis) in enumerate(((a, -2 if not adjoints[0] else -1), (b, -1 if not adjoints[1] else -2))):
        if empty[i]:
            tensors[i] = _padded_by_one(ctx, tensors[i], v, axis)
    rank = len(shape) if shape is not None else max(a.rank, b.rank)
    padded_shape = None if shape is None else (*shape[:-2], None, None)
    product = ctx.emit(OPS.BATCH_MATMUL, tensors, padded_shape, a.dtype, options=options)
    cut = schema.StridedSliceOptionsT()
    end = [0] * rank
    for axis, padded in ((rank - 2, empty[0]), (rank - 1, empty[1])):
        if padded:
            end[axis] = -1  # the padded row / column, the last one, cut off
    cut.beginMask = (1 << rank) - 1
    cut.endMask = sum(1 << axis for axis in range(rank) if end[axis] == 0)
    inputs = [
        product.tensor,
        ctx.int32_tensor([0] * rank),
        ctx.int32_tensor(end),
        ctx.int32_tensor([1] * rank),
    ]
    return ctx.emit(OPS.STRIDED_SLICE, inputs, shape, a.dtype, options=cut)


def _padded_by_one(ctx: LoweringContext, tensor: int, v: Value, axis: int) -> int:
    """``tensor`` (``v`` as BATCH_MATMUL reads it) with one zero entry padded on at the end of ``axis``."""
    paddings = np.zeros((v.rank, 2), np.int32)
    paddings[axis, 1] = 1
    stored = ctx.sg.tensors[tensor]
    dims = stored.signature if stored.signature is not None else stored.shape
    shape = (
        None
        if dims is None
        else tuple(None if i == axis % v.rank or d < 0 else d for i, d in enumerate(dims))
    )
    out = ctx.new_tensor(shape, v.dtype, name="never_empty")
    ctx.sg.add_op(OPS.PAD, [tensor, ctx.int32_tensor(paddings)], [out], schema.PadOptionsT())
    return out


_UNBACKED = re.compile(r"\bu\d+\b")


def may_be_empty(value: ir.Value, axis: int) -> bool:
    """Whether ``value``'s dim ``axis`` may be 0 at run time: a size the data decides (torch names
    it ``u0``, ``Max(1, u0)``...) or one not known at all; static and input sizes are not."""
    if value.shape is None or len(value.shape) < abs(axis):
        return True
    dim = value.shape[axis]
    if isinstance(dim, int):
        return dim == 0
    return dim.value is None or bool(_UNBACKED.search(str(dim.value)))


@lower("MatMul")
def lower_matmul(ctx: LoweringContext, node: ir.Node) -> Value:
    """Y = A @ B (numpy semantics)."""
    a, b = ctx.input(node, 0), ctx.input(node, 1)
    if a.dtype != np.float32:
        raise Unsupported(f"MatMul of {a.dtype} (float32 only)")
    shape = out_shape(node)
    a, b = _contractions_conformed(ctx, a, b)
    if a.rank == 1 or b.rank == 1:
        if a.static and b.static:
            a2 = ctx.reshape(a, (1, a.shape[0])) if a.rank == 1 else a
            b2 = ctx.reshape(b, (b.shape[0], 1)) if b.rank == 1 else b
            full = tuple(np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])) + (a2.shape[-2], b2.shape[-1])
            product = batch_matmul(ctx, a2, b2, full)
            return ctx.reshape(product, shape or tuple(np.matmul(np.zeros(a.shape), np.zeros(b.shape)).shape))
        return _matvec_dynamic(ctx, a, b, may_be_empty(node.outputs[0], -1))
    if b.const is not None and b.rank == 2:
        return fully_connected(ctx, a, b.const.T, None, shape)
    return batch_matmul(ctx, a, b, shape, empty=_empty_sides(node))


def _contractions_conformed(ctx: LoweringContext, a: Value, b: Value) -> tuple[Value, Value]:
    """``a`` and ``b`` with a run-time-sized contraction dim read at the other side's static size
    inside a control-flow subgraph (short_windows.exact_extent)."""
    if a.shape is None or b.shape is None:
        return a, b
    k_a, k_b = a.shape[-1], (b.shape[-2] if b.rank >= 2 else b.shape[0])
    return exact_extent(ctx, a, -1, k_b), exact_extent(ctx, b, -2 if b.rank >= 2 else 0, k_a)


def _empty_sides(node: ir.Node) -> tuple[bool, bool]:
    """Whether the product's rows, columns may be 0 at run time."""
    return may_be_empty(node.outputs[0], -2), may_be_empty(node.outputs[0], -1)


def _matvec_dynamic(ctx: LoweringContext, a: Value, b: Value, empty: bool) -> Value:
    """A matrix-vector product with dynamic sizes (``adj @ v``, ``v @ w``): the vector as a one-column
    (one-row) matrix, BATCH_MATMUL, and the unit dim dropped; two vectors: MUL and SUM."""
    if a.rank == 1 and b.rank == 1:  # a dot product (``v @ w``): the products summed
        return reduce(ctx, OPS.SUM, elementwise_values(ctx, OPS.MUL, a, b), [0], False)
    if b.rank == 1:
        b2 = ctx.reshape(b, (b.shape[0], 1))
        product = batch_matmul(ctx, a, b2, (*a.shape[:-1], 1), empty=(empty, False))
        return ctx.reshape(product, tuple(a.shape[:-1]))
    a2 = ctx.reshape(a, (1, a.shape[0]))
    product = batch_matmul(ctx, a2, b, (*b.shape[:-2], 1, b.shape[-1]), empty=(False, empty))
    return ctx.reshape(product, (*b.shape[:-2], b.shape[-1]))


@lower("Gemm")
def lower_gemm(ctx: LoweringContext, node: ir.Node) -> Value:
    """Y = alpha * A' @ B' + beta * C (A', B' optionally transposed)."""
    a, b, c = ctx.input(node, 0), ctx.input(node, 1), ctx.input(node, 2)
    alpha, beta = attr(node, "alpha", 1.0), attr(node, "beta", 1.0)
    trans_a, trans_b = attr(node, "transA", 0), attr(node, "transB", 0)
    if a.dtype != np.float32:
        raise Unsupported(f"Gemm of {a.dtype} (float32 only)")
    if trans_a:
        a = Value(a.name, a.shape[::-1], a.dtype, tensor=a.tensor, perm=(a.perm or (0, 1))[::-1], const=None) \
            if a.const is None else ctx.const(a.const.T)  # fmt: skip
    shape = out_shape(node)
    n = shape[1] if shape else None
    if b.const is not None:
        weights = (b.const if trans_b else b.const.T) * np.float32(alpha)
        bias = None
        if c is not None and c.const is not None and c.const.size in (1, weights.shape[0]) and c.rank <= 1:
            bias = np.broadcast_to(c.const.reshape(-1) * np.float32(beta), (weights.shape[0],))
            c = None
        result = fully_connected(ctx, a, weights, bias, shape)
    else:
        result = batch_matmul(ctx, a, b, shape, adj_y=bool(trans_b), empty=_empty_sides(node))
        if alpha != 1.0:
            result = elementwise_values(ctx, OPS.MUL, result, scalar(ctx, alpha, np.float32))
    if c is not None:
        if beta != 1.0:
            c = elementwise_values(ctx, OPS.MUL, c, scalar(ctx, beta, np.float32))
        result = elementwise_values(ctx, OPS.ADD, result, c)
    del n
    return result
