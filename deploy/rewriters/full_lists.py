"""The list a range loop filled, on the path where the loop ran to its end (passes/loop_exits.py).

    for i in range(x.shape[0]):                 a `return` in the loop becomes a `break`, so the
        if x[i, 0] < -2.0:                      graph loop appends a data-dependent number of rows;
            return reject                       where no `return` ran, every iteration appended
        gains.append(level)                     once: `len(gains) == x.shape[0]`, which torch
    g = torch.stack(gains) * x[:, 0]            cannot know (`Eq(u0, s0)` fails inside the cond)

``full_length`` gives the list the loop's own length there: its rows read back at positions
``0 .. count - 1`` (rows past the data-dependent end read a zero row; only the path where a
`return` ran has such rows, and it never reads the list again).
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters.values import StackedList, is_sym_int, is_tracing


def range_length(*bounds) -> object:
    """``len(range(*bounds))`` for int or symbolic bounds (a symbolic size stays symbolic); None for
    a symbolic range with a step that is not a positive int (the list is then left as it is)."""
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    if not any(is_sym_int(b) for b in (start, stop, step)):
        return len(range(start, stop, step))
    if step == 1:
        return stop if type(start) is int and start == 0 else torch.sym_max(0, stop - start)
    if type(step) is int and step > 0:
        return torch.sym_max(0, (stop - start + step - 1) // step)
    return None


def full_length(values, before: object, *bounds):
    """``values`` (a list holding ``before`` values before the loop) as ``before + len(range(*bounds))``
    rows: unchanged in eager PyTorch and wherever the length is already that."""
    if not (is_tracing() and isinstance(values, StackedList)):
        return values
    length = range_length(*bounds)
    if length is None:
        return values
    count = before + length
    rows = values.stacked_with_prefix()
    if statically_known_true(rows.shape[0] == count):
        return values
    padded = torch.cat([rows, rows.new_zeros((1, *rows.shape[1:]))])
    positions = torch.arange(count, dtype=torch.int64).clamp(max=rows.shape[0])
    return StackedList([], padded.index_select(0, positions))
