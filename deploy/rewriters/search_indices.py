"""The range of an index a search loop found (passes/search_indices.py):

    target = temps.shape[0] - 1
    for k in range(temps.shape[0]):
        if t_in > temps[k]:
            target = k
            break
    temps = torch.cat([temps[:target], mixed.reshape(1), temps[target + 1 :]])

A graph loop gives ``target`` as a 0-d tensor, and its slices then take sizes torch cannot add
up (one data-dependent size per slice), so ``temps`` no longer has the size a loop around this
code carries. The index lies between the loop's bounds or is its value before the loop: when the
sizes show which of those is the lowest and which the highest, it is read as an int (``.item()``)
that torch is told lies in that range, and the slices of it keep sizes that add up to the dim
(bounded_slices.narrowed).
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters.bounded_slices import is_scalar_index
from deploy.rewriters.values import is_tracing


def _is_int(value: object) -> bool:
    return isinstance(value, (int, torch.SymInt)) and not isinstance(value, bool)


def _known(claim: object) -> bool:
    return bool(claim) if isinstance(claim, bool) else statically_known_true(claim)


def _lowest(a: object, b: object) -> object:
    return a if _known(a <= b) else b if _known(b <= a) else None


def _highest(a: object, b: object) -> object:
    return a if _known(b <= a) else b if _known(a <= b) else None


def index_bounds(before: object, *range_args: object) -> tuple | None:
    """(lowest, highest) value a search over ``range(*range_args)`` can leave in an index that
    held ``before``; None when the sizes do not tell (or the values are not ints)."""
    start, stop = (0, range_args[0]) if len(range_args) == 1 else range_args
    if not all(_is_int(v) for v in (before, start, stop)):
        return None
    low, high = _lowest(before, start), _highest(before, stop - 1)
    return None if low is None or high is None else (low, high)


def index_within(value: object, bounds: tuple | None) -> object:
    """``value`` (a graph loop's 0-d tensor) as an int torch knows lies within ``bounds``, while
    exporting; unchanged otherwise."""
    if bounds is None or not is_tracing() or not is_scalar_index(value):
        return value
    found = value.item()
    torch._check(found >= bounds[0])
    torch._check(found <= bounds[1])
    return found
