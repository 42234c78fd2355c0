"""``[t for t in xs if keep(t)]`` of tensors while exporting: which of a list's values pass a tensor
test is known only when the model runs, so the kept list has no Python form. Its values stay the
rows they are with a flag per row (KeptRows); ``len`` counts the flags and ``kept[i]`` reads the
``i``-th flagged row (``kept[-1]``: the last), with no size of their own (which a loop body could not
carry). Eagerly, and for lists the test reads as Python values, the comprehension itself.
"""

from __future__ import annotations

import torch

from deploy.rewriters.logic import _bool_tensor, truth
from deploy.rewriters.values import StackedList, is_row_list, is_symbolic, is_tracing


class KeptRows:
    """The rows of a list and, per row, whether the comprehension keeps it."""

    def __init__(self, rows: torch.Tensor, keep: torch.Tensor):
        self.rows, self.keep = rows, keep

    def kept(self) -> StackedList:
        """The kept rows alone, in order: a data-dependent number of them (``torch.stack`` of it)."""
        from deploy.rewriters.compacted import masked_rows

        return StackedList([], masked_rows(self.rows, self.keep))

    def length(self) -> torch.Tensor:
        """How many rows are kept (a 0-d int64 tensor)."""
        return self.keep.to(torch.int64).sum()

    def __getitem__(self, index: object) -> torch.Tensor:
        """The ``index``-th kept row (negative: from the end); a row eager would not read (an
        index past the kept ones) is row 0, on a path the graph computes but does not take."""
        if isinstance(index, torch.Tensor):
            position = index.to(torch.int64).reshape(())
        elif isinstance(index, int) or isinstance(index, torch.SymInt):
            position = torch.full((), 1, dtype=torch.int64) * index
        else:
            raise TypeError(f"a kept list read at {index!r}: only single positions are supported")
        position = torch.where(position < 0, position + self.length(), position)
        rank = self.keep.to(torch.int64).cumsum(0) - 1  # each kept row's place among them
        hit = torch.logical_and(self.keep, rank == position)
        row = hit.to(torch.int64).argmax().reshape(1)
        return self.rows.index_select(0, row).squeeze(0)


def kept_entries(values: object, keep, entry=None):
    """``[t for t in values if keep(t)]``, or ``[entry(t) for t in values if keep(t)]`` (passes/
    calls.py): an entry computed from each of a list of Python numbers (``backlog[s] for s in
    range(3)``) is a row of its own, kept by its test's flag."""
    if entry is not None:
        if is_tracing() and _numbers(values):
            return _kept_numbers(list(values), keep, entry)
        return [entry(v) for v in values if keep(v)]
    rows = _rows(values) if is_tracing() else None
    if rows is None and is_tracing() and _numbers(values):
        return _kept_numbers(list(values), keep)
    if rows is None:
        return [v for v in values if keep(v)]
    rows, count = rows
    flags = _flags(rows, keep)
    if flags is None:
        return [v for v in values if keep(v)]
    if count is not None:  # a carried list's buffer: only its first ``count`` rows are values
        flags = torch.logical_and(flags, torch.arange(rows.shape[0]) < count)
    return KeptRows(rows, flags)


def _numbers(values: object) -> bool:
    """``range(4)``, a list or tuple of Python ints: values Python iterates as they are."""
    return (
        isinstance(values, (range, list, tuple)) and len(values) > 0 and all(type(v) is int for v in values)
    )


def _kept_numbers(values: list[int], keep, entry=None):
    """``[l for l in range(4) if l != leg]`` with ``leg`` a tensor: each number (or its ``entry``)
    with its test's flag (KeptRows) when a test is a tensor; the numbers kept otherwise."""
    tests = [truth(keep(v)) for v in values]
    if not any(is_symbolic(t) for t in tests):
        return [v if entry is None else entry(v) for v, t in zip(values, tests) if t]
    flags = torch.stack([_bool_tensor(t) for t in tests])
    if entry is not None:
        entries = [entry(v) for v in values]
        if not all(isinstance(e, torch.Tensor) and e.shape == entries[0].shape for e in entries):
            raise TypeError("a list comprehension whose `if` is a tensor test must give entries of one shape")
        return KeptRows(torch.stack([e.to(entries[0].dtype) for e in entries]), flags)
    # (full scalars: torch.tensor inside a graph op's body would be a lifted constant, casts.tensor)
    return KeptRows(torch.stack([torch.full((), v, dtype=torch.int64) for v in values]), flags)


def _rows(values: object) -> tuple[torch.Tensor, torch.Tensor | None] | None:
    if is_row_list(values):
        return values.buffer, values.count
    if isinstance(values, StackedList):
        return values.stacked_with_prefix(), None
    if (
        isinstance(values, (list, tuple))
        and values
        and all(isinstance(v, torch.Tensor) for v in values)
        and all(v.shape == values[0].shape and v.dtype == values[0].dtype for v in values)
    ):
        return torch.stack(list(values)), None
    return None


def _flags(rows: torch.Tensor, keep) -> torch.Tensor | None:
    """``keep`` of each row as one bool per row: the test of 0-d values on the whole column at once,
    of larger rows by vmap; None when the test does not give one flag per row."""
    try:
        flags = keep(rows) if rows.dim() == 1 else torch.vmap(keep)(rows)
    except Exception:  # a test vmap cannot batch (it reads a Python value): the Python comprehension
        return None
    if not isinstance(flags, torch.Tensor) or tuple(flags.shape) != tuple(rows.shape[:1]):
        return None
    return flags.to(torch.bool)
