"""Python builtins over the lists converted loops fill (values.StackedList, whose length may be
symbolic while exporting): ``list(xs)``, ``sum(xs)``, ``max(xs)`` / ``min(xs)``. Python would
iterate the values one by one, which fixes a dynamic length to the example's; these work on the
stacked rows instead. ``[int(c) for c in t]`` over a tensor's entries is the tensor itself, cast.
``range(n)`` of a dynamic size outside a loop header (``order =
list(reversed(range(J)))``, then ``for j in order``) is the tensor of its values. Anything else runs
the builtin.
"""

from __future__ import annotations

import builtins
import types

import torch

from deploy.rewriters.bounded_slices import is_scalar_index
from deploy.rewriters.values import StackedList, as_rows, is_sym_int, is_tracing


def list_(*args):
    """``list(xs)``: a copy that is still a StackedList (``list(reversed(xs))`` included); while
    exporting, the values of a range over a dynamic size stay the tensor ``range_`` made."""
    if len(args) == 1 and isinstance(as_rows(args[0]), StackedList):
        return as_rows(args[0]).copy()
    if len(args) == 1 and _dynamic_rows(args[0]):
        return args[0]
    return list(*args)


def range_(*bounds):
    """``range(...)`` outside a loop header: while exporting with a symbolic bound, its values as an
    int64 tensor (Python's range would fix the size to the example's; ``reversed`` flips it and a
    loop over it runs over its dynamic length); the builtin range otherwise."""
    if is_tracing() and any(is_sym_int(b) for b in bounds):
        return torch.arange(*bounds, dtype=torch.int64)
    return range(*bounds)


def returned_list(value: torch.Tensor):
    """``return t.tolist()``: while exporting, of a 1-d tensor whose length is data-dependent (a
    nonzero's positions) or dynamic, the tensor (its entries, as a loop over it reads them);
    Python's list otherwise."""
    if is_tracing() and isinstance(value, torch.Tensor) and value.dim() == 1 and is_sym_int(value.shape[0]):
        return value
    return value.tolist()


def all_(values):
    """``all(flags)``: of a list holding tensors (``used[c] = True`` under tensor tests, a list a
    graph loop carries entry by entry) while exporting, one tensor predicate (Python's all would ask
    each entry's truth, a data-dependent branch); Python's all otherwise."""
    values = _listed(values)
    flags = _flags(values)
    return builtins.all(values) if flags is None else flags.all()


def any_(values):
    """``any(flags)``, as ``all_``."""
    values = _listed(values)
    flags = _flags(values)
    return builtins.any(values) if flags is None else flags.any()


def _listed(values):
    """A generator (``all(s[o] == STANCE for o in others)``) as the list of its entries while
    exporting, all evaluated (Python's all stops at the first false one, asking each tensor's truth)."""
    return list(values) if is_tracing() and isinstance(values, types.GeneratorType) else values


def _flags(values) -> torch.Tensor | None:
    """The truth of each entry as one bool tensor, while exporting a list holding tensors; None
    otherwise."""
    if isinstance(values, StackedList) and is_tracing():
        return values.stacked_with_prefix().to(torch.bool).reshape(-1)
    if not (is_tracing() and isinstance(values, (list, tuple)) and values):
        return None
    if not any(isinstance(v, torch.Tensor) for v in values):
        return None
    if not all(isinstance(v, (bool, int, float, torch.Tensor)) for v in values):
        return None
    return torch.stack(
        [
            v.to(torch.bool).reshape(()) if isinstance(v, torch.Tensor) else torch.full((), bool(v))
            for v in values
        ]
    )


def _dynamic_rows(value: object) -> bool:
    return (
        is_tracing()
        and isinstance(value, torch.Tensor)
        and value.dim() == 1
        and value.dtype == torch.int64
        and is_sym_int(value.shape[0])
    )


def sum_(*args):
    """``sum(xs)``: the rows' sum (0 added, as Python's sum starts from 0)."""
    if len(args) == 1 and isinstance(as_rows(args[0]), StackedList):
        return as_rows(args[0]).stacked_with_prefix().sum(0)
    return builtins.sum(*args)


def reduce_rows(name: str, values):
    """``max(xs)`` / ``min(xs)`` of tensors while exporting: the largest / smallest row (Python's
    would compare the values one by one, a data-dependent branch each); None when not that case."""
    values = as_rows(values)
    if isinstance(values, StackedList):
        rows = values.stacked_with_prefix()
    elif (
        is_tracing()
        and isinstance(values, (list, tuple))
        and values
        and all(isinstance(v, torch.Tensor) and v.dim() == 0 for v in values)
    ):
        rows = torch.stack(list(values))
    else:
        return None
    return rows.amax(0) if name == "max" else rows.amin(0)


def list_repeat(values, times):
    """``[ABORT] * (n - len(states))``: Python's repeated list, or while exporting with a symbolic
    count (a dynamic size less a data-dependent length) a StackedList of that many copies of the
    values' rows, none for a count below 1 as Python's."""
    if not (is_tracing() and is_sym_int(times) and isinstance(values, list) and values):
        return values * times
    # a Python number as torch.full: a constant tensor cannot be lifted into a graph op's body
    # `[None] * n` (entries set before they are read, `cp[i] = ...`): 0-d float rows, the common case
    values = [0.0 if v is None else v for v in values]
    rows = torch.stack(
        [torch.full((), v) if isinstance(v, (int, float)) else torch.as_tensor(v) for v in values]
    )
    count = torch.sym_max(times, 0)
    return StackedList([], rows.repeat(count, *([1] * (rows.dim() - 1))))


def repeated(make, count):
    """``[make() for _ in range(count)]``: while exporting with a count the model computes (a 0-d
    tensor, ``int(doors.item())`` in a converted body, or a symbolic size), a StackedList of that
    many rows of the value (a Python list would fix the count to the example's); Python's list
    otherwise, each entry made anew as Python's comprehension makes it."""
    if is_tracing() and (is_sym_int(count) or is_scalar_index(count)):
        value = make()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = torch.full((), value)
        if isinstance(value, torch.Tensor):
            if isinstance(count, torch.Tensor):
                count = count.item()
            count = torch.sym_max(count, 0)
            return StackedList([], value.unsqueeze(0).expand(count, *value.shape).clone())
    return [make() for _ in range(count)]


_ENTRY_CASTS = {"int": torch.int64, "float": torch.float32, "item": None, "": None}


def entries_of(values, cast: str):
    """``[int(c) for c in t]`` (``float(c)``, ``c.item()``, ``c``) over a 1-d tensor: while exporting,
    the tensor cast as the entries would be (a list of a dynamic or data-dependent length has no
    other form: the rows of a StackedList); the Python list otherwise."""
    if (
        is_tracing()
        and isinstance(values, torch.Tensor)
        and values.dim() == 1
        and is_sym_int(values.shape[0])
    ):
        dtype = _ENTRY_CASTS[cast]
        return StackedList([], values.to(dtype) if dtype is not None else values)
    if cast == "int":
        return [int(v) for v in values]
    if cast == "float":
        return [float(v) for v in values]
    if cast == "item":
        return [v.item() for v in values]
    return list(values)
