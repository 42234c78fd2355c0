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
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

import torch

_ORIGINAL_CDIST = torch.cdist


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
    fastpath = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(False)
    try:
        yield
    finally:
        torch.cdist = _ORIGINAL_CDIST
        torch.backends.mha.set_fastpath_enabled(fastpath)
