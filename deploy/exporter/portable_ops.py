"""Ops whose torch implementation picks an algorithm by input size, swapped while exporting.

``torch.cdist`` computes Euclidean distances with a matrix product when either input has more than
25 rows and elementwise otherwise; on a dynamic dim that choice is a guard that specialises the
export (``26 <= points``), and torch.onnx has no translation for ``aten._cdist_forward`` at all.
While exporting, ``torch.cdist`` is the elementwise definition (the exact one, what eager computes
for small inputs; the matrix-product path differs from it by rounding only).

``nn.TransformerEncoderLayer`` / ``nn.MultiheadAttention`` in eval mode without autograd take a
fused "fast path" (``aten._transformer_encoder_layer_fwd``, ``_native_multi_head_attention``) when
their inputs allow it, which torch.onnx cannot translate; while exporting the fast path is off and
the layers run their composite definition (the same math).

``torch.argsort(x, stable=True)`` / ``torch.sort(x, stable=True)`` trace to ``aten.sort.stable``,
which torch.onnx cannot translate. While exporting they take their definition: each entry's rank is
the number of entries before it (smaller, or equal at a lower index), and the order puts each index
at its rank (comparisons of every pair: exact, stable, for the short vectors such sorts see).

``x.nanmedian()`` (of all entries) traces to ``aten.nanmedian.default``, which torch.onnx cannot
translate. While exporting it is the lower median of the entries that are not NaN, as torch defines
it: the entries sorted with NaN last, read at ``(k - 1) // 2`` for ``k`` such entries (NaN when there
are none).

``x.kthvalue(k)`` traces to ``aten.kthvalue.default``, which torch.onnx cannot translate. While
exporting it is the last of the ``k`` smallest entries along the dim (``torch.topk(x, k, dim,
largest=False)``, TopK in ONNX and TOPK_V2 in TFLite), with its index.

``torch.gradient`` checks each dim's size before slicing it, a guard on sizes the export cannot
know; while exporting it reads clamped neighbours instead (portable_gradient.py).

``z.mean(dim=0)`` of a complex tensor converts the count of entries to a complex number, which asks
torch for the dynamic size's value and specialises the export to the example (``Eq(ensemble, 8)``).
While exporting, a complex mean is the mean of its real and imaginary parts (``view_as_real``). A
float mean over a dim of a data-dependent size (the rows a filter kept, maybe none) is NaN where the
dim is empty, as torch's is: onnxruntime's ReduceMean of an empty axis gives 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import torch

from deploy.exporter import portable_gradient

_ORIGINAL_CDIST = torch.cdist
_ORIGINAL_ARGSORT, _ORIGINAL_SORT = torch.argsort, torch.sort
_ORIGINAL_TENSOR_ARGSORT, _ORIGINAL_TENSOR_SORT = torch.Tensor.argsort, torch.Tensor.sort
_ORIGINAL_NANMEDIAN, _ORIGINAL_TENSOR_NANMEDIAN = torch.nanmedian, torch.Tensor.nanmedian
_ORIGINAL_MEAN, _ORIGINAL_TENSOR_MEAN = torch.mean, torch.Tensor.mean
_ORIGINAL_KTHVALUE, _ORIGINAL_TENSOR_KTHVALUE = torch.kthvalue, torch.Tensor.kthvalue


def _ranked_order(x: torch.Tensor, dim: int, descending: bool) -> torch.Tensor:
    """The stable sorting permutation of ``x`` along ``dim`` from pairwise comparisons."""
    moved = x.movedim(dim, -1)
    n = moved.shape[-1]
    mine, other = moved.unsqueeze(-1), moved.unsqueeze(-2)  # [..., i, 1] and [..., 1, j]
    index = torch.arange(n, device=x.device)
    ahead = (other > mine) if descending else (other < mine)
    ahead = ahead | ((other == mine) & (index.unsqueeze(0) < index.unsqueeze(1)))
    rank = ahead.sum(-1)  # [..., i]: where entry i goes
    at_rank = rank.unsqueeze(-2) == index.unsqueeze(-1)  # [..., r, i]
    return at_rank.to(torch.int32).argmax(-1).movedim(-1, dim)


def _ranked(input, args: tuple, kwargs: dict) -> bool:
    """A stable sort while exporting, with (dim, descending) given positionally or by name."""
    known = set(kwargs) <= {"stable", "dim", "descending"} and len(args) <= 2
    return bool(kwargs.get("stable")) and known and torch.compiler.is_compiling() and input.dim() > 0


def _dim_and_order(args: tuple, kwargs: dict) -> tuple[int, bool]:
    dim = args[0] if args else kwargs.get("dim", -1)
    return dim, args[1] if len(args) > 1 else kwargs.get("descending", False)


def _argsort(input, *args, **kwargs):
    # passed on as given: torch.argsort(x, stable=False) is aten.sort.stable too, x.argsort() is not
    if not _ranked(input, args, kwargs):
        return _ORIGINAL_ARGSORT(input, *args, **kwargs)
    return _ranked_order(input, *_dim_and_order(args, kwargs))


def _sort(input, *args, **kwargs):
    if not _ranked(input, args, kwargs):
        return _ORIGINAL_SORT(input, *args, **kwargs)
    dim, descending = _dim_and_order(args, kwargs)
    order = _ranked_order(input, dim, descending)
    return torch.return_types.sort((input.gather(dim, order), order))


def _tensor_argsort(self, *args, **kwargs):
    if not _ranked(self, args, kwargs):
        return _ORIGINAL_TENSOR_ARGSORT(self, *args, **kwargs)
    return _argsort(self, *args, **kwargs)


def _tensor_sort(self, *args, **kwargs):
    if not _ranked(self, args, kwargs):
        return _ORIGINAL_TENSOR_SORT(self, *args, **kwargs)
    return _sort(self, *args, **kwargs)


def _nanmedian(input, *args, **kwargs):
    if args or kwargs or not torch.compiler.is_compiling() or not input.is_floating_point():
        return _ORIGINAL_NANMEDIAN(input, *args, **kwargs)
    flat = input.reshape(-1)
    present = ~torch.isnan(flat)
    count = present.sum()
    ordered = torch.where(present, flat, torch.full_like(flat, math.inf)).sort().values
    position = ((count - 1).clamp(min=0) // 2).reshape(1)
    value = ordered.index_select(0, position).reshape(())
    return torch.where(count > 0, value, torch.full_like(value, math.nan))


def _kthvalue(input, k, dim=-1, keepdim=False):
    if not torch.compiler.is_compiling() or input.dim() == 0:
        return _ORIGINAL_KTHVALUE(input, k, dim, keepdim)
    smallest = torch.topk(input, k, dim, largest=False, sorted=True)
    values = smallest.values.narrow(dim, k - 1, 1)
    indices = smallest.indices.narrow(dim, k - 1, 1)
    if not keepdim:
        values, indices = values.squeeze(dim), indices.squeeze(dim)
    return torch.return_types.kthvalue((values, indices))


def _mean(input, *args, **kwargs):
    known = set(kwargs) <= {"dim", "keepdim"} and len(args) <= 2 and "dtype" not in kwargs
    if not (torch.compiler.is_compiling() and known and (input.is_complex() or input.is_floating_point())):
        return _ORIGINAL_MEAN(input, *args, **kwargs)
    dim = args[0] if args else kwargs.get("dim")
    keepdim = args[1] if len(args) > 1 else kwargs.get("keepdim", False)
    rank = input.dim()
    dims = list(range(rank)) if dim is None else [d % rank for d in ((dim,) if isinstance(dim, int) else dim)]
    if not input.is_complex():
        return _mean_of_maybe_none(input, dims, keepdim, args, kwargs)
    parts = torch.view_as_real(input).mean(dim=dims, keepdim=keepdim)
    return torch.view_as_complex(parts.contiguous())


def _mean_of_maybe_none(input, dims: list[int], keepdim: bool, args, kwargs):
    """A float mean over dims of a data-dependent size (rows a filter kept): NaN where there are none,
    as torch's (onnxruntime's ReduceMean of an empty axis gives 0)."""
    sizes = [input.shape[d] for d in dims]
    value = _ORIGINAL_MEAN(input, *args, **kwargs)
    if torch.compiler.is_dynamo_compiling() or not any(_data_dependent(s) for s in sizes):
        return value
    count = torch.full((), 1, dtype=torch.int64)
    for size in sizes:
        count = count * size
    return torch.where(count > 0, value, torch.full_like(value, math.nan))


def _data_dependent(size) -> bool:
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

    return isinstance(size, torch.SymInt) and bool(free_unbacked_symbols(size))


def _cdist(x1: torch.Tensor, x2: torch.Tensor, p: float = 2.0, compute_mode: str | None = None):
    if not torch.compiler.is_compiling() or not p > 0:
        return _ORIGINAL_CDIST(x1, x2, p, compute_mode or "use_mm_for_euclid_dist_if_necessary")
    diff = (x1.unsqueeze(-2) - x2.unsqueeze(-3)).abs()
    if p == 2.0:
        return diff.square().sum(-1).sqrt()
    if p == 1.0:
        return diff.sum(-1)
    if math.isinf(p):
        return diff.amax(-1)
    return diff.pow(p).sum(-1).pow(1.0 / p)


@contextmanager
def portable_ops() -> Iterator[None]:
    """Within: the ops above take their size-independent definitions, and attention layers their
    composite path (see below)."""
    torch.cdist = _cdist
    torch.argsort, torch.sort = _argsort, _sort
    torch.Tensor.argsort, torch.Tensor.sort = _tensor_argsort, _tensor_sort
    torch.nanmedian = torch.Tensor.nanmedian = _nanmedian  # as a method, the tensor is ``input``
    torch.mean = torch.Tensor.mean = _mean
    torch.kthvalue = torch.Tensor.kthvalue = _kthvalue
    torch.gradient = portable_gradient.gradient
    fastpath = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        yield
    finally:
        torch.cdist = _ORIGINAL_CDIST
        torch.argsort, torch.sort = _ORIGINAL_ARGSORT, _ORIGINAL_SORT
        torch.Tensor.argsort, torch.Tensor.sort = _ORIGINAL_TENSOR_ARGSORT, _ORIGINAL_TENSOR_SORT
        torch.nanmedian, torch.Tensor.nanmedian = _ORIGINAL_NANMEDIAN, _ORIGINAL_TENSOR_NANMEDIAN
        torch.mean, torch.Tensor.mean = _ORIGINAL_MEAN, _ORIGINAL_TENSOR_MEAN
        torch.kthvalue, torch.Tensor.kthvalue = _ORIGINAL_KTHVALUE, _ORIGINAL_TENSOR_KTHVALUE
        torch.gradient = portable_gradient._ORIGINAL_GRADIENT
        torch.backends.mha.set_fastpath_enabled(fastpath)
