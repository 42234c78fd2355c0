"""The last rows of a list a graph loop carries as a RowList (row_lists.py) and only appends to.

Such a list keeps the rows it started the loop with, so ``xs[-k:]`` with ``k`` at most that many is
the ``k`` rows before the count: gathered at static positions, not read through the data-dependent
count (a narrow in the loop body that torch.onnx's decompositions cannot retrace). The loop names
those lists (``Site.row_growing``, passes/row_lists.py) and ``floors`` holds their starting rows
while its body is traced.
"""

from __future__ import annotations

import contextlib

import torch


def tail_window(values, index: slice, name: str) -> torch.Tensor | None:
    """``values[-k:]`` / ``values[-k:-j]`` of a list that holds at least k rows all through the loop
    (it started with them and the loop only appends): rows count - k to count - j, a static number,
    gathered without the data-dependent ``count`` rows ``rows()`` narrows to."""
    start, stop, step = index.start, index.stop, index.step
    floor = next((f[name] for f in reversed(_FLOORS) if name in f), 0)
    if not (isinstance(start, int) and start < 0 and step in (None, 1) and -start <= floor):
        return None
    if not (stop is None or (isinstance(stop, int) and start < stop < 0)):
        return None
    end = 0 if stop is None else stop
    positions = torch.arange(start, end, dtype=torch.int64) + values.count.reshape(())
    return values.buffer.index_select(0, positions.clamp(0, values.buffer.shape[0] - 1))


# while a loop carrying RowLists traces its body: {name: rows each list keeps all through the loop}
_FLOORS: list[dict[str, int]] = []


@contextlib.contextmanager
def floors(args: tuple, names: tuple, growing: frozenset):
    """The rows the lists in ``growing`` start with (``tail_window``), for the loop's body; a loop
    nested in a body dynamo traces adds none (no side effects there), its lists read as Python's."""
    if torch.compiler.is_dynamo_compiling():
        yield
        return
    _FLOORS.append({n: len(v) for v, n in zip(args, names) if n in growing and isinstance(v, list)})
    try:
        yield
    finally:
        _FLOORS.pop()
