"""Python lists and tuples read or stored at a position known only when the model runs (a
converted loop's counter, a branch's pick, an ``int()`` of a tensor): a list of numbers, of number
rows or of same-shaped tensors is one table read by index_select; a list of numbers or bools stored
into at such a position is a new list whose every entry is a select on the position."""

from __future__ import annotations

import torch

from deploy.errors import NotDeployableError
from deploy.rewriters.bounded_slices import is_scalar_index
from deploy.rewriters.casts import tensor
from deploy.rewriters.values import as_tensor_value, is_sym_int


def run_time_position(index: object) -> bool:
    """A 0-d integer tensor, or a symbolic int: an unbacked one, or a size (``BEST_OF[m]`` with ``m =
    min(n, 10)``: Python's list indexing would fix it to the example's value)."""
    return is_sym_int(index) or is_scalar_index(index)


def _as_table(values: tuple | list) -> torch.Tensor | None:
    """A tuple/list of numbers (or of same-shaped tensors of one dtype) as one tensor, each entry a
    row; None for anything else (modules, mixed shapes, bools)."""
    if values and all(type(v) in (int, float) for v in values):
        return tensor(list(values))  # (not torch.tensor: a lifted constant in a graph op's body)
    if values and all(type(v) in (tuple, list) and len(v) == len(values[0]) and v for v in values):
        rows = [list(v) for v in values]  # `DELTAS[move]` of ((-1, 0), (1, 0), ...): a 2-D table
        if all(type(e) in (int, float) for row in rows for e in row):
            return tensor(rows)
    if values and all(isinstance(v, torch.Tensor) for v in values):
        first = values[0]
        if all(v.dtype == first.dtype and v.shape == first.shape for v in values):
            return torch.stack(list(values))
    if values and all(_scalar_entry(v) for v in values):
        # `points[w]` of `[0, 0]` a converted loop carries (its entries 0-d tensors by now)
        entries = [as_tensor_value(v) for v in values]
        dtype = entries[0].dtype
        for entry in entries[1:]:
            dtype = torch.promote_types(dtype, entry.dtype)
        return torch.stack([entry.to(dtype) for entry in entries])
    return None


def _scalar_entry(value: object) -> bool:
    """A Python int/float, a symbolic int or a 0-d int/float tensor (a list of such is one table)."""
    if isinstance(value, torch.Tensor):
        return value.dim() == 0 and value.dtype != torch.bool
    return type(value) in (int, float) or is_sym_int(value)


def _bool_entry(value: object) -> bool:
    """A Python bool or a 0-d bool tensor."""
    if isinstance(value, torch.Tensor):
        return value.dim() == 0 and value.dtype == torch.bool
    return type(value) is bool


def stored_at(entries: list, index: object, value: object) -> list | None:
    """``points[w] = v`` of a Python list at a position known only at run time (``w`` picked by a
    converted branch): every entry becomes ``v`` where the position is its own and stays otherwise,
    so the list keeps its length (a graph op carries it entry by entry). Numbers, or bools
    (``enabled[i] = False`` of ``[True] * n``); None for any other list."""
    numbers = all(_scalar_entry(v) for v in entries) and _scalar_entry(as_tensor_value(value))
    if not numbers and not all(_bool_entry(v) for v in [*entries, value]):
        return None
    size = len(entries)
    position = as_tensor_value(index).reshape(()).to(torch.int64)
    position = torch.where(position < 0, position + size, position)
    value = as_tensor_value(value)
    if value.dtype == torch.bool:  # (onnxruntime has no Where kernel on bools: and/or instead)
        return [
            ((position == i) & value) | ((position != i) & as_tensor_value(old))
            for i, old in enumerate(entries)
        ]
    return [torch.where(position == i, value, as_tensor_value(old)) for i, old in enumerate(entries)]


def read_at(values: tuple | list, index: object) -> torch.Tensor | None:
    """``values[index]`` of a list that is one table (``_as_table``) by index_select: Python's
    negative positions counted from the end, and a position eager would refuse clamped (the graph
    computes untaken branches too); None for a list that is not a table."""
    table = _as_table(values)
    if table is None:
        return _read_columns(values, index)
    size = table.shape[0]
    position = as_tensor_value(index).reshape(1).to(torch.int64)
    position = torch.where(position < 0, position + size, position).clamp(0, size - 1)
    return table.index_select(0, position)[0]


def _read_columns(values: tuple | list, index: object) -> tuple | None:
    """``trick[best]`` of a list of tuples whose entries are numbers or 0-d tensors of differing
    dtypes (a player, a suit, a rank): the tuple of each column read at the position, each in its
    own dtype; None for any other list. A column of other values (a catalog's names) is its one
    value where all rows hold the same, else an entry that refuses any use (``CATALOG[k][4]``
    reads a number column only)."""
    if not values or not all(isinstance(v, tuple) and v and len(v) == len(values[0]) for v in values):
        return None
    columns = [[row[k] for row in values] for k in range(len(values[0]))]
    numbers = [all(_scalar_entry(e) for e in column) for column in columns]
    if not any(numbers):
        return None
    return tuple(
        read_at(column, index) if number else _one_value(column) for column, number in zip(columns, numbers)
    )


def _one_value(column: list) -> object:
    first = column[0]
    if all(type(e) is type(first) and not isinstance(e, torch.Tensor) and e == first for e in column):
        return first
    return UnreadableEntry(column)


class UnreadableEntry:
    """A table entry that is no number (a section's name) read at a position known only at run
    time: the graph cannot hold it, so a use of it is refused with a message naming the column."""

    def __init__(self, column: list):
        self.column = column

    def _refuse(self, *args, **kwargs):
        shown = ", ".join(repr(e) for e in self.column[:3])
        raise NotDeployableError(
            f"an entry of ({shown}, ...) is read at a position known only at run time; a graph holds "
            "numbers only: read a column of numbers, or index the names outside the model"
        )

    __str__ = __format__ = __bool__ = __len__ = __iter__ = __getitem__ = _refuse
