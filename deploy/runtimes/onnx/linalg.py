"""Definitions of ops torch.onnx has no translation for, written with ops it has.

- ``torch.linalg.solve(A, B)`` for a small matrix of static size (n <= 16): LU elimination with
  partial pivoting (the row of largest magnitude in each column) and back substitution, as LAPACK's
  gesv, unrolled over the n columns, batched over leading dims (Gauss-Jordan elimination was ten
  times less accurate than torch on an ill-conditioned 3x3 plane fit); ``left=False`` solves ``X A = B`` as ``A^T X^T = B^T``.
- ``torch.linalg.inv(A)`` (n <= 16): the same solve of ``A X = I``.
- ``torch.linalg.pinv(A)`` with one static side of at most 8: the singular values and right vectors
  by one-sided Jacobi (Hestenes) rotations of the columns, a fixed 8 sweeps unrolled (float32
  converges in fewer), then torch's own cutoff (``atol``/``rtol``, default ``eps * max(m, n)`` of the
  largest) and ``V diag(1/s^2) (U S)^T``; rank-deficient matrices get torch's answer too.
- ``torch.fft.rfftfreq(n, d)`` / ``fftfreq(n, d)``: an arange over ``n * d``.
- ``torch.searchsorted(sorted, values)``: torch's own binary search, unrolled for the most halvings
  the sequence's length (or its largest size) takes, so a sequence that is not sorted (a random
  verification input) gives the same index as eagerly, not only a sorted one.
- ``torch.cumprod(x, d)``: entry ``i`` is the product of entries ``0..i``, a ReduceProd over a
  lower-triangular mask (ones elsewhere): exact for ints and floats alike (``exp(cumsum(log))``
  is neither), at ``L*L`` entries per row of length ``L``.
- ``F.cross_entropy`` with class-index targets, no weights and no smoothing: log_softmax and a
  gather along the class dim (torch.onnx's own decomposition of ``reduction="none"`` over dynamic
  sizes gives one element); the other forms by torch's core decomposition.
"""

from __future__ import annotations

from typing import Any

MAX_SOLVE = 16
MAX_PINV = 8
PINV_SWEEPS = 8


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


def pinv(A, *, atol=None, rtol=None, hermitian: bool = False, rcond=None):
    import torch

    m, n = A.shape[-2], A.shape[-1]
    if not (isinstance(n, int) and n <= MAX_PINV) or (isinstance(m, int) and m < n):
        return pinv(A.mT, atol=atol, rtol=rcond if rtol is None else rtol).mT
    cols, vecs = _jacobi_columns(A)
    scaled = torch.stack(cols, -1)  # (..., m, n): U S
    squares = (scaled * scaled).sum(-2)  # (..., n): the singular values squared
    sigma = torch.sqrt(squares)
    zero = torch.zeros((), dtype=A.dtype, device=A.device)
    rtol = rcond if rtol is None else rtol
    absolute = zero if atol is None else torch.as_tensor(atol, dtype=A.dtype, device=A.device).unsqueeze(-1)
    if rtol is not None:
        relative = torch.as_tensor(rtol, dtype=A.dtype, device=A.device).unsqueeze(-1)
    else:
        size = max(m, n) if isinstance(m, int) else torch.sym_max(m, n)
        default = torch.full((), torch.finfo(A.dtype).eps * size, dtype=A.dtype, device=A.device)
        relative = default if atol is None else torch.where(absolute > 0, zero, default)
    cutoff = torch.maximum(absolute, relative * sigma.amax(-1, keepdim=True))
    weight = torch.where(sigma > cutoff, 1 / torch.where(squares > 0, squares, 1), zero)
    return (torch.stack(vecs, -1) * weight.unsqueeze(-2)) @ scaled.mT


def _jacobi_columns(A):
    """Columns of ``A V`` (mutually orthogonal: ``U S``) and of ``V``, by PINV_SWEEPS sweeps of
    Jacobi rotations over every column pair."""
    import torch

    n = A.shape[-1]
    cols = list(A.unbind(-1))
    eye = torch.eye(n, dtype=A.dtype, device=A.device)
    vecs = [eye[:, k].expand(*A.shape[:-2], n) for k in range(n)]
    for _ in range(PINV_SWEEPS):
        for p in range(n - 1):
            for q in range(p + 1, n):
                a, b = cols[p], cols[q]
                gamma = (a * b).sum(-1, keepdim=True)
                flat = gamma == 0
                zeta = ((b * b).sum(-1, keepdim=True) - (a * a).sum(-1, keepdim=True)) / (
                    2 * torch.where(flat, torch.ones_like(gamma), gamma)
                )
                sign = torch.where(zeta >= 0, 1.0, -1.0).to(A.dtype)
                tangent = sign / (zeta.abs() + torch.sqrt(1 + zeta * zeta))
                t = torch.where(flat, torch.zeros_like(gamma), tangent)
                c = torch.rsqrt(1 + t * t)
                s = c * t
                cols[p], cols[q] = c * a - s * b, s * a + c * b
                u, v = vecs[p], vecs[q]
                vecs[p], vecs[q] = c * u - s * v, s * u + c * v
    return cols, vecs


def rfftfreq(n, d: float = 1.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    import torch

    steps = torch.arange(n // 2 + 1, dtype=dtype or torch.get_default_dtype(), device=device)
    return steps * (1.0 / (n * d))


def fftfreq(n, d: float = 1.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    import torch

    index = torch.arange(n, device=device)
    signed = torch.where(index < (n + 1) // 2, index, index - n)
    return signed.to(dtype or torch.get_default_dtype()) * (1.0 / (n * d))


def searchsorted(
    sorted_sequence, values, *, out_int32: bool = False, right: bool = False, side=None, sorter=None
):
    import torch

    if sorter is not None:
        sorted_sequence = torch.gather(sorted_sequence, -1, sorter)
    right = right or side == "right"
    n = sorted_sequence.shape[-1]
    dtype = torch.int32 if out_int32 else torch.int64
    if isinstance(n, int) and n == 0:
        return torch.zeros(values.shape, dtype=dtype, device=values.device)
    start = torch.zeros(values.shape, dtype=torch.int64, device=values.device)
    end = torch.full(values.shape, 1, dtype=torch.int64, device=values.device) * n
    for _ in range(_search_steps(n)):
        mid = start + (end - start) // 2
        at = mid.clamp(0, n - 1)
        seen = sorted_sequence[at] if sorted_sequence.dim() == 1 else torch.gather(sorted_sequence, -1, at)
        onward = ~(seen > values) if right else ~(seen >= values)  # as torch's, NaN included
        searching = start < end
        start = torch.where(searching & onward, mid + 1, start)
        end = torch.where(searching & ~onward, mid, end)
    return start.to(dtype)


def _search_steps(n) -> int:
    """The halvings a binary search over ``n`` entries takes at most: of its largest size when
    ``n`` is symbolic (31 when unbounded)."""
    if isinstance(n, int):
        return max(n, 1).bit_length()
    upper = n.node.shape_env.bound_sympy(n.node.expr).upper
    return int(upper).bit_length() if upper.is_finite else 31


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


def cross_entropy(x, target, weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0):
    """``F.cross_entropy`` with class-index targets, no weights and no smoothing, as log_softmax and a
    gather along the class dim; the other forms by torch's core decomposition. torch.onnx's (and the
    core) decompositions of ``reduction="none"`` over a dynamic batch cut by a size branch give a
    one-element result ("shape '[s52, Min(256, s27) - 1]' is invalid for input of size 1")."""
    import torch

    if weight is not None or label_smoothing != 0.0 or target.dtype.is_floating_point or x.dim() < 2:
        core = torch.export.default_decompositions()[torch.ops.aten.cross_entropy_loss.default]
        return core(x, target, weight, reduction, ignore_index, label_smoothing)
    valid = target != ignore_index
    picked = torch.log_softmax(x, 1).gather(1, torch.where(valid, target, 0).unsqueeze(1)).squeeze(1)
    losses = torch.where(valid, -picked, torch.zeros((), dtype=x.dtype))
    if reduction == 0:
        return losses
    if reduction == 2:
        return losses.sum()
    return losses.sum() / valid.sum().to(x.dtype)


def table_for(program: Any) -> dict:
    """The decompositions above that ``program`` (or one of its subgraphs) needs."""
    import torch

    aten = torch.ops.aten
    wanted = {
        aten.linalg_solve.default: solve,
        aten.linalg_inv.default: inv,
        aten.searchsorted.Tensor: searchsorted,
        aten.cumprod.default: cumprod,
        aten.linalg_pinv.atol_rtol_tensor: pinv,
        aten.linalg_pinv.atol_rtol_float: pinv,
        aten.fft_rfftfreq.default: rfftfreq,
        aten.fft_fftfreq.default: fftfreq,
        aten.cross_entropy_loss.default: cross_entropy,
    }
    sized = {  # the ops decomposed only for matrices of these sizes
        aten.linalg_solve.default: _small_static,
        aten.linalg_inv.default: _small_static,
        aten.linalg_pinv.atol_rtol_tensor: _one_small_static_side,
        aten.linalg_pinv.atol_rtol_float: _one_small_static_side,
    }
    found = {}
    for module in program.graph_module.modules():
        for node in getattr(module, "graph", None).nodes if hasattr(module, "graph") else ():
            if node.op != "call_function" or node.target not in wanted:
                continue
            if node.target in sized and not sized[node.target](node):
                continue
            found[node.target] = wanted[node.target]
    return found


def _small_static(node) -> bool:
    value = node.args[0].meta.get("val")
    size = value.shape[-1] if value is not None else None
    return isinstance(size, int) and size <= MAX_SOLVE


def _one_small_static_side(node) -> bool:
    value = node.args[0].meta.get("val")
    sides = value.shape[-2:] if value is not None else ()
    return any(isinstance(size, int) and size <= MAX_PINV for size in sides)
