"""Runtime operators for loops over lists the function builds, or over tensors' rows
(passes/list_loops.py):

    for tok, q in zip(drafted, q_probs):      for k in range(_deploy_rt.seq_len(drafted, q_probs)):
        ...                          ->           tok = _deploy_rt.seq_item(drafted, k)
                                                  q = _deploy_rt.seq_item(q_probs, k)

Eagerly, and for Python lists while exporting, these are ``min(len(...))`` and ``seq[k]``: the loop
stays a Python loop over the same items. A list an earlier converted loop filled (a StackedList:
its length may be data-dependent) gives a symbolic length, so the loop becomes a graph loop, and
each item is a row of the list's values stacked.
"""

from __future__ import annotations

import torch

from deploy.rewriters.casts import len_, tensor
from deploy.rewriters.subscripts import getitem
from deploy.rewriters.values import StackedList, is_row_list, is_sym_int, is_tracing


def seq_len(*seqs: object) -> object:
    """The number of items ``zip(*seqs)`` gives (a symbolic size for a data-dependent list)."""
    lengths = [len_(s) for s in seqs]
    shortest = lengths[0]
    for length in lengths[1:]:
        if is_sym_int(shortest) or is_sym_int(length):
            shortest = torch.sym_min(shortest, length)
        else:
            shortest = min(shortest, length)
    return shortest


def seq_of(value: object, listed: bool = False) -> object:
    """What a loop over ``value`` visits, indexable: tensors (their rows, over a dynamic size),
    lists and other sequences as they are, any other iterable (a dict's keys, a generator) listed.
    ``listed``: the loop was over ``value.tolist()``: Python numbers eagerly, the tensor's entries
    while exporting (a list of a data-dependent length has no other form)."""
    if listed:
        return value if is_tracing() and isinstance(value, torch.Tensor) else value.tolist()
    if is_row_list(value) or type(value).__name__ == "KeptObjects":  # a list a graph loop carries
        return value  # (row_lists.RowList), modules held by flags (kept_objects.py)
    if isinstance(value, (torch.Tensor, StackedList, list, tuple, str, range, torch.nn.ModuleList)):
        return value
    if isinstance(value, (torch.nn.Sequential, torch.nn.ParameterList)):
        return value
    return list(value)


def split_step(size: object) -> object:
    """The chunk size of ``for chunk in x.split(size)`` (passes/list_loops._split_loop): an int or a
    size. A list of sizes (``split_with_sizes``) has no such loop; said plainly rather than failing
    inside ``range``."""
    if (type(size) is int and size > 0) or is_sym_int(size):
        return size
    raise TypeError(
        f"`for chunk in x.split(size)` is converted for an int chunk size; got {type(size).__name__} "
        "(loop over `range(0, n, k)` and slice `x[s : s + k]` instead)"
    )


def seq_item(seq: object, index: object) -> object:
    """``seq[index]``; with a graph loop's counter, a row of the stacked values."""
    if is_row_list(seq) or type(seq).__name__ == "KeptObjects":  # a list a graph loop carries: row
        return seq.at(index)  # ``index`` of its buffer; modules held by flags (kept_objects.py)
    if isinstance(seq, StackedList):
        return getitem(seq.stacked_with_prefix(), index)
    if isinstance(seq, torch.Tensor):
        return getitem(seq, index)
    if isinstance(index, torch.Tensor) and isinstance(seq, (list, tuple)):
        # a Python list zipped with a data-dependent one, or a loop over a literal list that may
        # `break` on a tensor: its items stacked (one shape, as for a row), numbers built with
        # torch.full (a constant in a graph op's body is lifted, which torch.onnx cannot decompose)
        if all(isinstance(v, (bool, int, float)) for v in seq):
            return getitem(tensor(list(seq)), index)
        if _named_rows(seq):
            return tuple(_column([row[k] for row in seq], index) for k in range(len(seq[0])))
        return getitem(torch.stack([v if isinstance(v, torch.Tensor) else tensor(v) for v in seq]), index)
    return seq[index]


def _named_rows(seq: list | tuple) -> bool:
    """Rows of one length that are not all numbers of one kind: ``("AKE", 1500.0, 4.3, False)`` per
    container, or ``(7, 2.0)`` (a length and a limit: each column read in its own dtype)."""
    if not seq or not all(isinstance(row, (tuple, list)) and len(row) == len(seq[0]) for row in seq):
        return False
    if not all(isinstance(v, (bool, int, float)) for row in seq for v in row):
        return True
    return len({type(v) for row in seq for v in row}) > 1


def _column(values: list, index: torch.Tensor) -> object:
    """One column of a literal table at a run-time position: numbers (or bools) as a tensor read
    there, one value shared by every row as itself, anything else (names that differ) as a value
    that refuses to be used (``for _, kg, m3, ok in enumerate(ULDS)``: unpacked, never read)."""
    if all(isinstance(v, (bool, int, float)) for v in values) and len({type(v) is bool for v in values}) == 1:
        return getitem(tensor(list(values)), index)
    if all(type(v) is type(values[0]) and v == values[0] for v in values):
        return values[0]
    if all(isinstance(v, torch.Tensor) for v in values):
        return seq_item(values, index)
    return UnreadableEntry(values)


class UnreadableEntry:
    """An entry of a literal table's column that differs from row to row and is not a number (a
    name), at a position known only at run time: a graph cannot carry it, so any use is an error."""

    def __init__(self, values: list):
        self.values = values

    def _refuse(self, *args, **kwargs):
        raise TypeError(
            f"a value of {self.values!r} read at a position known only at run time cannot be used while "
            "exporting (only numbers, bools and tensors can be picked by a tensor value)"
        )

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __bool__ = __str__ = __format__ = _refuse
    __hash__ = __len__ = __iter__ = __getitem__ = __add__ = __radd__ = __contains__ = _refuse

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        self._refuse()
