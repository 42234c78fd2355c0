"""ONNX translations of ops that torch.onnx has none for: ``sym_stride`` and ``median`` (whole
tensor or along a dim).

torch.export may bind a size inside a graph op's body (a scan over a dynamic length) through a
*stride* of an input, ``sym_stride(x, 0)`` for the ``T`` of a ``(2, T)`` tensor. ONNX tensors are
dense and row-major, so a stride is the product of the later sizes: ``ReduceProd(Shape(x)[d+1:])``.
"""

from __future__ import annotations

from typing import Any


def _sym_stride(self, dim: int = 0):
    from onnxscript import opset18 as op

    return op.ReduceProd(op.Shape(self, start=dim + 1), keepdims=0)


def _median(self):
    """``x.median()``: the lower of the two middle values (torch's definition), as the largest of the
    ``(n - 1) // 2 + 1`` smallest (TopK ascending, which TFLite lowers too)."""
    from onnxscript import opset18 as op

    flat = op.Reshape(self, op.Constant(value_ints=[-1]))
    count = op.Shape(flat)
    keep = op.Add(
        op.Div(op.Sub(count, op.Constant(value_ints=[1])), op.Constant(value_ints=[2])),
        op.Constant(value_ints=[1]),
    )
    smallest, _ = op.TopK(flat, keep, largest=0, sorted=1)
    return op.ReduceMax(smallest, keepdims=0)


def _median_dim(self, dim: int = -1, keepdim: bool = False):
    """``x.median(d)``: (values, indices) of the lower middle entry along ``d``: the last of the
    ``(n - 1) // 2 + 1`` smallest there (TopK ascending, sorted), gathered with its index."""
    from onnxscript import opset18 as op

    count = op.Shape(self, start=dim, end=dim + 1 if dim != -1 else None)
    keep = op.Add(
        op.Div(op.Sub(count, op.Constant(value_ints=[1])), op.Constant(value_ints=[2])),
        op.Constant(value_ints=[1]),
    )
    smallest, where = op.TopK(self, keep, axis=dim, largest=0, sorted=1)
    last = op.Sub(keep, op.Constant(value_ints=[1]))
    values = op.Gather(smallest, last, axis=dim)
    indices = op.Gather(where, last, axis=dim)
    if not keepdim:
        axes = op.Constant(value_ints=[dim])
        values, indices = op.Squeeze(values, axes), op.Squeeze(indices, axes)
    return values, indices


def translations() -> dict[Any, Any]:
    """{aten op: translation} for torch.onnx's ``custom_translation_table``."""
    import torch

    return {
        torch.ops.aten.sym_stride.int: _sym_stride,
        torch.ops.aten.median.default: _median,
        torch.ops.aten.median.dim: _median_dim,
    }
