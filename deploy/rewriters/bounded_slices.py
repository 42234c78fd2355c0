"""``x[:n]`` whose bound is a tensor (``n = int(count.item())`` in a converted body, where ``int`` of
a tensor stays a 0-d tensor), read with Python's slice rules.

torch would read a tensor bound with ``.item()`` and then ask whether the new size equals the dim
(``Eq(12, u17)``: is the slice all of ``x``?), which it cannot decide inside a graph op. Here each
bound is resolved as Python does (a negative one counts from the end, then it is clamped into
``[0, size]``), and the slice is a narrow by the resolved start and length, whose ranges torch is
told. Slices of plain ints and sizes stay plain slices.
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters.values import as_tensor_value, check_size, is_sym_int, is_tracing


class RunTimeSlice:
    """``start : stop`` with a tensor bound, while exporting (a ``slice`` of a tensor would have
    dynamo read the tensor as an int where the slice is built)."""

    def __init__(self, start: object, stop: object):
        self.start, self.stop, self.step = start, stop, None

    def as_slice(self) -> slice:
        return slice(self.start, self.stop)


def slice_of(start: object, stop: object) -> object:
    """The subscript entry ``start : stop`` (passes/subscripts.py): a RunTimeSlice while exporting
    when a bound is a tensor, a plain slice otherwise."""
    if is_tracing() and any(is_scalar_index(b) for b in (start, stop)):
        return RunTimeSlice(start, stop)
    return slice(start, stop)


def run_time_bounds(entries: tuple) -> bool:
    """Every entry is a slice with no step, one a RunTimeSlice."""
    return any(isinstance(e, RunTimeSlice) for e in entries) and all(
        isinstance(e, (slice, RunTimeSlice)) and e.step is None for e in entries
    )


def is_scalar_index(value: object) -> bool:
    """A 0-d integer tensor: a loop's counter, an ``.item()`` kept a tensor (subscripts.py too)."""
    return (
        isinstance(value, torch.Tensor)
        and value.dim() == 0
        and not value.dtype.is_floating_point
        and value.dtype != torch.bool
    )


def sliced(x: torch.Tensor, entries: tuple, most: int | None = None) -> torch.Tensor:
    """``x[entries]`` for slices with run-time bounds (see module docstring); ``most``: the most
    entries a slice can have (a window ``x[t : t + k]``: ``k``), which torch is told."""
    for dim, entry in enumerate(entries):
        if isinstance(entry, slice) and entry == slice(None):
            continue
        size = x.shape[dim]
        start = _resolved(entry.start, 0, size)
        stop = _resolved(entry.stop, size, size)
        first = start.item()
        count = (stop - start).clamp(min=0).item()
        torch._check(first >= 0)
        check_size(count)  # (a size also in a probe, where torch._check is suppressed)
        if most is not None:  # (`x[t : t + 1].expand(2)`: torch may not take a window of 1 for one of 2)
            torch._check(count <= most)
        torch._check(first + count <= size)
        # the positions read, not a narrow: a slice sizes its result Min(size, first + count), which
        # the runtime checks of a graph loop's body cannot evaluate; clamped into the tensor, as a
        # slice is, for a branch computed but not taken (a select) at a start past the end
        positions = start.reshape(()) + torch.arange(count, dtype=torch.int64)
        last = as_tensor_value(size).reshape(()).to(torch.int64) - 1
        x = x.index_select(dim, torch.minimum(positions, last))
    return x


def narrowed(x: torch.Tensor, entries: tuple) -> torch.Tensor | None:
    """``x[a:b]`` with a symbolic int bound that torch knows lies within the dim (an index a search
    loop found, search_indices.py), as a narrow: sized ``b - a``, where a slice with a data-dependent
    bound would size it ``Min(size, b)``, which does not add up with the other slices of ``x``. None
    when some entry is not a slice, or no bound is symbolic, or torch cannot tell it is in range."""
    plan, unbacked = [], False
    for dim, entry in enumerate(entries):
        if not isinstance(entry, slice) or entry.step is not None or dim >= x.dim():
            return None
        size = x.shape[dim]
        start = 0 if entry.start is None else entry.start
        stop = size if entry.stop is None else entry.stop
        if not any(is_sym_int(b) for b in (entry.start, entry.stop)):
            plan.append(entry)  # read as a slice (after the narrows: it keeps its dim)
            continue
        unbacked = True
        if not (_at_most(0, start) and _at_most(start, stop) and _at_most(stop, size)):
            return None
        plan.append((start, stop))
    if not unbacked:
        return None
    for dim, bounds in enumerate(plan):
        if isinstance(bounds, tuple):
            x = x.narrow(dim, bounds[0], bounds[1] - bounds[0])
    rest = tuple(slice(None) if isinstance(b, tuple) else b for b in plan)
    whole = all(r.start is None and r.stop is None for r in rest)  # (no step: checked above)
    return x if whole else x[rest]


def _at_most(a: object, b: object) -> bool:
    """``a <= b`` known statically; also asked as ``a < b``, which torch may know where it cannot
    tell ``a <= b`` (told ``u <= n - 1``, it knows ``u < n`` but not ``u <= n``)."""
    return statically_known_true(a <= b) or statically_known_true(a < b)


def _resolved(bound: object, default: object, size: object) -> torch.Tensor:
    """A slice bound as a 0-d int64 tensor in ``[0, size]`` (Python's rules for negative bounds)."""
    extent = as_tensor_value(size).reshape(()).to(torch.int64)
    if bound is None:
        return as_tensor_value(default).reshape(()).to(torch.int64)
    value = as_tensor_value(bound).reshape(()).to(torch.int64)
    value = torch.where(value < 0, value + extent, value)
    return torch.minimum(torch.clamp(value, min=0), extent)


def stored_in_window(x: torch.Tensor, entries: tuple, value: torch.Tensor) -> torch.Tensor:
    """``x[a:b, c:d] = v`` of one value with run-time bounds (``best[y - 10 : y + 11] = 0`` around a
    peak a loop found): ``v`` where every dim's position lies in its resolved ``[start, stop)``,
    ``x`` elsewhere. A slice store would read the bounds as ints, which torch cannot in a graph op."""
    mask = None
    for dim, entry in enumerate(entries):
        if isinstance(entry, slice) and entry == slice(None):
            continue
        inside = _inside(x, dim, entry)
        mask = inside if mask is None else mask & inside
    return x.clone() if mask is None else torch.where(mask, value.reshape(()), x)


def stored_in_slice(x: torch.Tensor, dim: int, entry: object, value: torch.Tensor) -> torch.Tensor:
    """``x[..., a:b, ...] = v`` along ``dim`` with run-time bounds: position p of ``[start, stop)`` takes
    ``v``'s entry ``p - start``, the rest keeps ``x``. A slice store would read the bounds as ints,
    which torch cannot inside a graph op. ``v`` gets one zero entry more, so the positions outside
    the slice (where the result keeps ``x``) read a valid entry even when the slice is empty."""
    inside = _inside(x, dim, entry)
    value = value.reshape((1,) * (x.dim() - value.dim()) + tuple(value.shape))
    if not is_sym_int(value.shape[dim]) and value.shape[dim] == 1:
        return torch.where(inside, value, x)  # one entry along the slice: broadcast, as Python's store
    pad = list(value.shape)
    pad[dim] = 1
    padded = torch.cat([value, value.new_zeros(pad)], dim)
    positions = torch.arange(x.shape[dim])
    taken = positions - _resolved(entry.start, 0, x.shape[dim])
    taken = torch.minimum(taken.clamp(min=0), torch.full_like(positions, value.shape[dim]))
    return torch.where(inside, padded.index_select(dim, taken), x)


def _inside(x: torch.Tensor, dim: int, entry: object) -> torch.Tensor:
    """Which positions along ``dim`` the slice ``entry`` covers (one position: an int or 0-d tensor
    index, negative from the end), shaped to broadcast against ``x``."""
    size = x.shape[dim]
    positions = torch.arange(size)
    if not isinstance(entry, (slice, RunTimeSlice)):
        index = as_tensor_value(entry).to(torch.int64).reshape(())
        inside = positions == torch.where(index < 0, index + size, index)
    else:
        inside = (positions >= _resolved(entry.start, 0, size)) & (
            positions < _resolved(entry.stop, size, size)
        )
    shape = [1] * x.dim()
    shape[dim] = -1
    return inside.reshape(shape)
