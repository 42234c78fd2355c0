"""``torch.gradient`` while exporting: central differences read at clamped neighbour indices.

torch's gradient checks that each dim holds at least ``edge_order + 1`` entries before slicing it;
on a size the export cannot know (a signal a size branch decimated, an unbacked size inside a
loop body) that check is a guard torch cannot decide ("Could not extract specialized integer").
With uniform spacing ``h`` and ``edge_order=1``, entry ``i`` is ``(x[i+1] - x[i-1]) / 2h`` inside
and the one-sided difference at either end: both are ``(x[hi] - x[lo]) / ((hi - lo) h)`` with
``lo = max(i - 1, 0)`` and ``hi = min(i + 1, n - 1)``, a gather of the same size as ``x``.
"""

from __future__ import annotations

import torch

_ORIGINAL_GRADIENT = torch.gradient


def _spacings(spacing, dims: list[int]) -> list[float] | None:
    """One uniform step per dim, or None for coordinates (left to torch)."""
    if isinstance(spacing, (int, float)):
        return [float(spacing)] * len(dims)
    if isinstance(spacing, (list, tuple)) and len(spacing) == len(dims):
        if all(isinstance(s, (int, float)) for s in spacing):
            return [float(s) for s in spacing]
    return None


def _along(x: torch.Tensor, dim: int, step: float) -> torch.Tensor:
    n = x.shape[dim]
    index = torch.arange(n, device=x.device)
    lo, hi = (index - 1).clamp(min=0), torch.minimum(index + 1, torch.full_like(index, n - 1))
    shape = [1] * x.dim()
    shape[dim] = -1
    span = ((hi - lo).to(x.dtype) * step).reshape(shape)
    return (x.index_select(dim, hi) - x.index_select(dim, lo)) / span


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    if not (torch.compiler.is_compiling() and edge_order == 1 and input.is_floating_point()):
        return _ORIGINAL_GRADIENT(input, spacing=spacing, dim=dim, edge_order=edge_order)
    rank = input.dim()
    dims = list(range(rank)) if dim is None else [d % rank for d in ((dim,) if isinstance(dim, int) else dim)]
    steps = _spacings(spacing, dims)
    if steps is None:
        return _ORIGINAL_GRADIENT(input, spacing=spacing, dim=dim, edge_order=edge_order)
    return tuple(_along(input, d, h) for d, h in zip(dims, steps))
