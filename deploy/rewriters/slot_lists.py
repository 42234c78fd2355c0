"""A list a loop appends to more than once per iteration (passes/continues.py):

    for i in range(poly.shape[0]):               each append statement fills a slot of its own per
        if cur_in:                               iteration (its value and a flag), since statements
            if not prev_in:                      of one iteration run in the order they are written;
                out.append(cross(prev, cur))     after the loop the slots are read back iteration by
            out.append(cur)                      iteration, in that order, keeping the flagged ones
        elif prev_in:
            out.append(cross(prev, cur))

``compact_slots`` gives the list: its values from before the loop, then the kept slot values.
"""

from __future__ import annotations

import torch

from deploy.rewriters.compacted import compact, masked_rows
from deploy.rewriters.values import StackedList, zeros_shaped_like


def compact_slots(values, others: list, kept: list):
    """``values`` (the list, its first slot appended), the other slots' values and every slot's
    flags (one list per slot, one entry per iteration), as the list the loop would have built."""
    lists = (values, *others, *kept)
    if not any(isinstance(v, StackedList) for v in lists):
        first = len(values) - len(kept[0])
        columns = [values[first:], *others]
        order = [(column[i], flags[i]) for i in range(len(kept[0])) for column, flags in zip(columns, kept)]
        return compact(values[:first] + [v for v, _ in order], [k for _, k in order])
    entries = [_entries(v) for v in lists]
    first = len(entries[0]) - len(entries[len(others) + 1])
    earlier, entries[0] = entries[0][:first], entries[0][first:]
    like = next(_row_like(e) for column in entries[: len(others) + 1] for e in column if e is not None)
    columns = [_stacked(column, like) for column in entries[: len(others) + 1]]
    flags = [_stacked(column, None) for column in entries[len(others) + 1 :]]
    rows = masked_rows(torch.stack(columns, 1).flatten(0, 1), torch.stack(flags, 1).flatten(0, 1))
    return StackedList(earlier, rows)


def _entries(values) -> list:
    """A list's entries: Python values, then (for a graph loop's list) its stacked rows as one
    tensor marked by a tuple."""
    if isinstance(values, StackedList):
        return [*values.prefix, (values.stacked,), *values.suffix]
    return list(values)


def _row_like(entry) -> torch.Tensor:
    """A value shaped like one row of a slot (for the zeros of a slot no path gave a value)."""
    if isinstance(entry, tuple):
        rows = entry[0]
        return torch.zeros(rows.shape[1:], dtype=rows.dtype)
    return torch.as_tensor(entry)


def _stacked(column: list, like) -> torch.Tensor:
    """One slot's values (``like``: a value of its shape) or flags (``like`` None) as rows; a value
    no path of a Python iteration gave is zeros."""
    parts = []
    for entry in column:
        if isinstance(entry, tuple):
            parts.append(entry[0] if like is not None else entry[0].bool())
        elif like is None:
            parts.append(torch.as_tensor(entry, dtype=torch.bool).reshape(1))
        else:
            value = entry if entry is not None else zeros_shaped_like(like)
            parts.append(torch.as_tensor(value).unsqueeze(0))
    return torch.cat(parts) if len(parts) > 1 else parts[0]
