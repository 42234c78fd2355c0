"""Definitions of ops torch.onnx has no translation for, written with ops it has.

- ``torch.linalg.solve(A, B)`` for a small matrix of static size (n <= 16): LU elimination with
  partial pivoting (the row of largest magnitude in each column) and back substitution, as LAPACK's
  gesv, unrolled over the n columns, batched over leading dims (Gauss-Jordan elimination was ten
  times less accurate than torch on an ill-conditioned 3x3 plane fit); ``left=False`` solves ``X A = B`` as ``A^T X^T = B^T``.
- ``torch.linalg.inv(A)`` (n <= 16): the same solve of ``A X = I``.
- ``torch.searchsorted(sorted, values)``: the insertion index is the number of entries below each
  value (``<`` for the left side, ``<=`` for the right), an exact count with no search order.
- ``torch.cumprod(x, d)``: entry ``i`` is the product of entries ``0..i``, a ReduceProd over a
  lower-triangular mask (ones elsewhere): exact for ints and floats alike (``exp(cumsum(log))``
  is neither), at ``L*L`` entries per row of length ``L``.
"""

from __future__ import annotations

from typing import Any

MAX_SOLVE = 16


def solve(A, B, *, left: bool = True):
    import torch

    if not left:
        return solve(A.mT, B.mT).mT
    n = A.shape[-1]
    vector = B.dim() == A.dim() - 1
    rhs = B.unsqueeze(-1) if vector else B
    batch = torch.broadcast_shapes(A.shape[:-2], rhs.shape[:-2])
    work = torch.cat([A.expand(*batch, n, n), rhs.expand(*batch, n, rhs.shape[-1])], -1)
    rows = torch.arange(n, device=A.device)
    below = (rows.unsqueeze(-1) > rows).unsqueeze(-1)  # (n, n, 1): [row, col] row below col
    for col in range(n):
        pivot = work[..., col:, col].abs().argmax(-1, keepdim=True) + col  # (..., 1)
        order = torch.where(rows == col, pivot, torch.where(rows == pivot, col, rows))
        work = torch.gather(work, -2, order.unsqueeze(-1).expand(work.shape))
        factor = work[..., :, col : col + 1] / work[..., col : col + 1, col : col + 1]
        work = torch.where(below[:, col], work - factor * work[..., col : col + 1, :], work)
    solved = [None] * n  # back substitution, last row first
    for i in reversed(range(n)):
        acc = work[..., i, n:]
        for j in range(i + 1, n):
            acc = acc - work[..., i, j : j + 1] * solved[j]
        solved[i] = acc / work[..., i, i : i + 1]
    result = torch.stack(solved, -2)
    return result.squeeze(-1) if vector else result


def inv(A):
    import torch

    eye = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    return solve(A, eye.expand(A.shape))


def searchsorted(
    sorted_sequence, values, *, out_int32: bool = False, right: bool = False, side=None, sorter=None
):
    import torch

    if sorter is not None:
        sorted_sequence = torch.gather(sorted_sequence, -1, sorter)
    right = right or side == "right"
    if sorted_sequence.dim() == 1:
        edges, points = sorted_sequence, values.unsqueeze(-1)
    else:
        edges, points = sorted_sequence.unsqueeze(-2), values.unsqueeze(-1)
    below = edges <= points if right else edges < points
    return below.sum(-1).to(torch.int32 if out_int32 else torch.int64)


def cumprod(x, dim: int, *, dtype=None):
    import torch

    if dtype is not None:
        x = x.to(dtype)
    if x.dim() == 0:
        return x.clone()
    moved = x.movedim(dim, -1)  # (..., L)
    index = torch.arange(moved.shape[-1], device=x.device)
    upto = index.unsqueeze(0) <= index.unsqueeze(1)  # (L out, L in): in <= out
    terms = torch.where(upto, moved.unsqueeze(-2), torch.ones((), dtype=x.dtype, device=x.device))
    return terms.prod(-1).movedim(-1, dim)


def table_for(program: Any) -> dict:
    """The decompositions above that ``program`` (or one of its subgraphs) needs."""
    import torch

    aten = torch.ops.aten
    wanted = {
        aten.linalg_solve.default: solve,
        aten.linalg_inv.default: inv,
        aten.searchsorted.Tensor: searchsorted,
        aten.cumprod.default: cumprod,
    }
    found = {}
    for module in program.graph_module.modules():
        for node in getattr(module, "graph", None).nodes if hasattr(module, "graph") else ():
            if node.op != "call_function" or node.target not in wanted:
                continue
            small = node.target not in (aten.linalg_solve.default, aten.linalg_inv.default) or _small_static(
                node
            )
            if not small:
                continue
            found[node.target] = wanted[node.target]
    return found


def _small_static(node) -> bool:
    value = node.args[0].meta.get("val")
    size = value.shape[-1] if value is not None else None
    return isinstance(size, int) and size <= MAX_SOLVE
