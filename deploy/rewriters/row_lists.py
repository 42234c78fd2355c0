"""Lists a converted loop appends to and reads back in the same loop (TensorArray-style):

    kept = []
    for i in range(x.shape[0]):
        if len(kept) > 0 and (torch.stack(kept) @ x[i]).max() > 0.9:
            continue                                       # a near duplicate of a kept row
        kept = _deploy_rt.list_append(kept, x[i])          # (passes/row_lists.py)

A graph loop carries tensors of one shape, so such a list is carried as a RowList: a buffer with
room for every row the loop can append (the rows before it plus one per append site per
iteration) and the count of rows in it. Reading it inside the loop sees the first ``count`` rows
(an unbacked size local to the body); appending writes row ``count`` and adds one. After the loop
it is a StackedList of those rows (a data-dependent length). The rows' shape comes from the rows
already there or, for an empty list, from a probe of one iteration whose appends only record what
they would append. Eagerly and on Python lists everything is plain Python. The loops that carry
such lists are row_loops.py.
"""

from __future__ import annotations

import contextlib
from typing import NamedTuple

import torch

from deploy.rewriters.row_windows import tail_window
from deploy.rewriters.sizing_rows import record
from deploy.rewriters.values import StackedList, check_size

_RECORDING: list[dict] = []  # while probing: {list name: (row shape, dtype, append sites seen)}


class RowList(NamedTuple):
    """A list carried by a graph loop: ``buffer`` (capacity, *row) and ``count`` (0-d int64). A
    named tuple, so torch's graph ops (and dynamo, tracing their bodies) carry it as two tensors;
    the passes route every read of such a list through the runtime (list_item, len_, stack)."""

    buffer: torch.Tensor
    count: torch.Tensor

    def rows(self) -> torch.Tensor:
        """The first ``count`` rows (an unbacked size while tracing)."""
        n = self.count.reshape(()).item()
        check_size(n)  # a size also in a probe, where guards (and torch._check's) are suppressed
        torch._check(n <= self.buffer.shape[0])
        return self.buffer.narrow(0, 0, n)  # (a slice would size it Min(capacity, n))

    def length(self) -> torch.Tensor:
        return self.count

    def at(self, index: object) -> torch.Tensor:
        """Row ``index`` (negative from the end), clamped into the buffer: a read Python would
        refuse (an empty list) gives a zero row on a path the graph computes but does not take."""
        if isinstance(index, torch.Tensor):
            position = index.to(torch.int64).reshape(())
        else:  # a Python int or size: no constant tensor inside a graph op's body
            position = torch.full((), 1, dtype=torch.int64) * index
        position = torch.where(position < 0, position + self.count, position)
        position = position.clamp(0, self.buffer.shape[0] - 1)
        return self.buffer.index_select(0, position.reshape(1)).squeeze(0)

    def put(self, index: object, value: object) -> RowList:
        """``values[index] = value`` (``bins[b] = bins[b] - size``): row ``index`` replaced."""
        if isinstance(index, torch.Tensor):
            position = index.to(torch.int64).reshape(())
        else:
            position = torch.full((), 1, dtype=torch.int64) * index
        position = torch.where(position < 0, position + self.count, position)
        position = position.clamp(0, self.buffer.shape[0] - 1).reshape(1)
        value = as_row(value, self.buffer.dtype) if isinstance(value, (tuple, list)) else value
        value = torch.as_tensor(value) if not isinstance(value, torch.Tensor) else value
        row = value.to(self.buffer.dtype).expand(self.buffer.shape[1:]).unsqueeze(0)
        return RowList(self.buffer.index_copy(0, position, row), self.count)

    def pop(self, index: object = -1) -> tuple[RowList, torch.Tensor]:
        """``values.pop(index)`` (a work stack's ``pop()``, a queue's ``pop(0)``): the list without
        row ``index`` (the rows after it move up one) and that row."""
        row = self.at(index)
        if isinstance(index, torch.Tensor):
            position = index.to(torch.int64).reshape(())
        else:
            position = torch.full((), 1, dtype=torch.int64) * index
        position = torch.where(position < 0, position + self.count, position)
        slots = torch.arange(self.buffer.shape[0], dtype=torch.int64)
        source = torch.where(slots >= position, slots + 1, slots).clamp(max=self.buffer.shape[0] - 1)
        return RowList(self.buffer.index_select(0, source), (self.count - 1).clamp(min=0)), row

    def to_stacked(self) -> StackedList:
        return StackedList([], self.rows())


def as_row(value: object, dtype: torch.dtype | None = None) -> torch.Tensor:
    """A list entry as one row: a tensor as it is, a tuple of ints / sizes / 0-d tensors (a work
    stack's ``(i, j)``) as a 1-d tensor (int64 unless an entry is floating)."""
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, (tuple, list)):
        if dtype is None:
            floating = any(
                isinstance(v, float) or (isinstance(v, torch.Tensor) and v.dtype.is_floating_point)
                for v in value
            )
            dtype = torch.get_default_dtype() if floating else torch.int64
        return torch.stack([as_row(v, dtype).reshape(()).to(dtype) for v in value])
    if isinstance(value, torch.SymInt):  # a size: no constant tensor inside a graph op's body
        return torch.full((), 1, dtype=dtype or torch.int64) * value
    return torch.full((), value, dtype=dtype)


def is_row_entry(value: object) -> bool:
    """A list entry a buffer row can hold: a tensor, or a tuple of numbers / sizes / 0-d tensors."""
    if isinstance(value, torch.Tensor):
        return True
    return isinstance(value, tuple) and all(
        (isinstance(v, torch.Tensor) and v.dim() == 0) or isinstance(v, (int, float, torch.SymInt))
        for v in value
    )


def list_pop(values, index=-1):
    """``x = values.pop(index)`` as ``values, x = list_pop(values, index)`` (passes/row_lists.py)."""
    if isinstance(values, RowList):
        return values.pop(index)
    value = values.pop(index)
    return values, value


def list_item(values, index, name: str = ""):
    """``values[index]`` of a list a loop appends to and reads."""
    if not isinstance(values, RowList):
        return values[index]
    if not isinstance(index, slice):
        return values.at(index)
    window = tail_window(values, index, name)
    return StackedList([], window if window is not None else values.rows()[index])


def list_append(values, value, name: str = ""):
    """``values.append(value)`` as an assignment (``values = list_append(values, value)``)."""
    # a probe on guessed rows (row_probe.py) records a RowList's appends too, and appends them as
    # in the loop so later reads see them; not in a body dynamo traces (no side effects there)
    guessed = isinstance(values, RowList) and not torch.compiler.is_dynamo_compiling()
    if _RECORDING and (isinstance(values, list) or guessed):
        seen = as_row(value) if isinstance(value, tuple) else torch.as_tensor(value)
        shape, dtype, sites = _RECORDING[-1].get(name, (tuple(seen.shape), seen.dtype, 0))
        _RECORDING[-1][name] = (shape, dtype, sites + 1)
        if isinstance(values, list):
            return values  # a probe: the list stays as it was, so both sides of a cond agree
    if isinstance(values, RowList):
        if record(values, as_row(value)):
            return values  # a sizing list (sizing_rows.py): the row's shape recorded, nothing written
        row = as_row(value, values.buffer.dtype)
        row = (row if row.dtype == values.buffer.dtype else row.to(values.buffer.dtype)).unsqueeze(0)
        # clamped: a buffer sized exactly (an append on every path) is full after the last append,
        # and a tensor `if` computed as a select runs the branch not taken too, writing one past it
        position = values.count.reshape(1).clamp(max=values.buffer.shape[0] - 1)
        buffer = values.buffer.index_copy(0, position, row)
        return RowList(buffer, values.count + 1)
    values.append(value)
    return values


def list_reset(values):
    """``values = []`` inside the loop: a RowList with no rows, else a new empty list."""
    if isinstance(values, RowList):
        return RowList(values.buffer, torch.zeros_like(values.count))
    return []


def recording_now() -> bool:
    """Whether a probe records the rows appends would make (row_loops._probed_once runs the body)."""
    return bool(_RECORDING)


@contextlib.contextmanager
def recording():
    _RECORDING.append({})
    try:
        yield _RECORDING[-1]
    finally:
        _RECORDING.pop()
