"""``[f(c) for c in xs]`` and ``[f(a, b) for a, b in zip(xs, ys)]`` (passes/comprehensions.py) while
exporting, over tensors (or lists a converted loop filled) whose length is dynamic or known only
when the model runs: Python would iterate that length, which fixes it to the example's or cannot be
decided. The entries are a scan of ``f`` over the rows instead, the rows of a StackedList; ``zip``
stops at the shortest source, as Python's does. A length torch cannot prove nonzero is scanned with
one row more, dropped after (torch's scan refuses an empty scan): the last row again, or a zero row
where there is none (``f`` must be computable on it: ``c[:-k] * c[k:]`` at ``k = 0`` is not). Eagerly, and where the scan
fails (``f`` gives no tensor, or reads a Python value), Python's comprehension.
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters.values import StackedList, as_tensor_value, is_sym_int, is_tracing


def mapped_entries(fn, *sources):
    """``[fn(c) for c in source]``, or ``[fn(*cs) for cs in zip(*sources)]``."""
    rows = [s.stacked_with_prefix() if isinstance(s, StackedList) else s for s in sources]
    if is_tracing() and _scannable(rows):
        mapped = _scanned(fn, rows)
        if mapped is not None:
            return StackedList([], mapped)
    if len(sources) == 1:
        return [fn(v) for v in sources[0]]
    return [fn(*vs) for vs in zip(*sources)]


def _scannable(rows: list) -> bool:
    if not all(isinstance(r, torch.Tensor) and r.dim() >= 1 for r in rows):
        return False
    return any(is_sym_int(r.shape[0]) for r in rows)


def _scanned(fn, rows: list) -> torch.Tensor | None:
    from torch._higher_order_ops.scan import scan

    from deploy.rewriters.loop_common import in_loop_body

    count = rows[0].shape[0]
    for other in rows[1:]:
        count = torch.sym_min(count, other.shape[0])
    rows = [r if r.shape[0] is count else r.narrow(0, 0, count) for r in rows]
    padded = not statically_known_true(count >= 1)
    if padded:  # the last row again (any row's entry must be computable: `c[:-k]` at k = 0 is not)
        last = as_tensor_value(count).reshape(()).to(torch.int64).sub(1).clamp(min=0)
        positions = torch.arange(count + 1, dtype=torch.int64).clamp(max=last)
        rows = [torch.cat([r, r.new_zeros((1, *r.shape[1:]))]).index_select(0, positions) for r in rows]

    def combine(carry, *entries):
        value = as_tensor_value(fn(*entries))
        if not isinstance(value, torch.Tensor):
            raise TypeError("a comprehension's entry is not a tensor")
        return [carry[0].clone()], [value.clone()]

    try:
        _, (mapped,) = in_loop_body(scan, lambda carry, xs: combine(carry, *xs), [torch.zeros(())], rows)
    except Exception:  # torch's many internal error types: Python's comprehension reports its own
        return None
    return mapped.narrow(0, 0, count) if padded else mapped
