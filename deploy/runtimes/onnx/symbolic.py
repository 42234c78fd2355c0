"""ONNX translations of symbolic-size ops that torch.onnx has none for.

torch.export may bind a size inside a graph op's body (a scan over a dynamic length) through a
*stride* of an input, ``sym_stride(x, 0)`` for the ``T`` of a ``(2, T)`` tensor. ONNX tensors are
dense and row-major, so a stride is the product of the later sizes: ``ReduceProd(Shape(x)[d+1:])``.
"""

from __future__ import annotations

from typing import Any


def _sym_stride(self, dim: int = 0):
    from onnxscript import opset18 as op

    return op.ReduceProd(op.Shape(self, start=dim + 1), keepdims=0)


def translations() -> dict[Any, Any]:
    """{aten op: translation} for torch.onnx's ``custom_translation_table``."""
    import torch

    return {torch.ops.aten.sym_stride.int: _sym_stride}
