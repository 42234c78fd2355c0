"""Values the runtime operators pass around: the undefined-variable marker, the stacked list a
converted loop leaves behind, and the tests that decide per call whether a value is symbolic
(a tensor or symbolic size while exporting -> emit a graph op) or plain Python (run plain Python).
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import _advise_is_size, free_unbacked_symbols, has_static_value

from deploy.rewriters.mixed_rows import made_rows


class Undefined:
    """Stands for a variable that has no value yet on the path taken (Python would raise NameError)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"Undefined({self.name!r})"

    def __bool__(self) -> bool:
        raise NameError(f"name {self.name!r} is not defined on this path")


# Branch outputs that are not tensors/ints cross torch.cond encoded as these ints (cond accepts
# int outputs and keeps equal constants constant); decoded back after the cond.
NONE_CODE = -(2**61) + 1
UNDEFINED_CODE = -(2**61) + 2


def is_tracing() -> bool:
    """True while torch.export (or dynamo inside a higher-order op) traces the model."""
    return torch.compiler.is_compiling()


def is_sym_int(value: object) -> bool:
    """A symbolic int (a dynamic size, an unbacked ``.item()``). Inside a graph-op body traced by
    dynamo a SymInt poses as an ``int`` to ``isinstance``; ``has_static_value`` (which dynamo
    evaluates on the symbolic value) tells it apart from a plain int there."""
    if isinstance(value, torch.SymInt):
        return True
    return (
        torch.compiler.is_dynamo_compiling()
        and isinstance(value, int)
        and not isinstance(value, bool)
        and not has_static_value(value)
    )


def is_sym_bool(value: object) -> bool:
    """A symbolic bool whose value is not known statically (see is_sym_int for the dynamo case)."""
    if isinstance(value, torch.SymBool) or (torch.compiler.is_dynamo_compiling() and isinstance(value, bool)):
        return not has_static_value(value)
    return False


def is_symbolic(value: object) -> bool:
    """Whether ``value`` is a predicate/bound that must become a graph op (only while tracing)."""
    if not is_tracing():
        return False
    if isinstance(value, (torch.Tensor, torch.SymFloat)):
        return True
    return is_sym_int(value) or is_sym_bool(value)


def check_size(n: object) -> None:
    """``torch._check_is_size(n)``, outside dynamo without its deprecation warning (torch 2.13), which
    an export would print once per call site; inside dynamo, which traces that call itself."""
    if torch.compiler.is_dynamo_compiling():
        torch._check_is_size(n)
        return
    torch._check(n >= 0)
    _advise_is_size(n)


def as_predicate(value: object) -> object:
    """A tensor/SymBool predicate in the form torch.cond takes: a 0-d bool tensor or a SymBool."""
    if isinstance(value, torch.Tensor):
        if value.dim() > 0:
            value = value.reshape(())
        if value.dtype != torch.bool:
            value = value != 0
    return value


def as_tensor_value(value: object) -> object:
    """A Python scalar carried through a graph op becomes a 0-d tensor (bool/int64/float32)."""
    if is_sym_int(value):
        return torch.full((), 1, dtype=torch.int64) * value
    if is_sym_bool(value):
        return torch.full((), 1, dtype=torch.int64).mul(torch.sym_ite(value, 1, 0)).bool()
    if isinstance(value, torch.SymFloat):  # `n * self.dt` of a dynamic size n
        return torch.full((), 1.0, dtype=torch.float32) * value
    if isinstance(value, bool):
        return torch.full((), value, dtype=torch.bool)
    if isinstance(value, int):
        return torch.full((), value, dtype=torch.int64)
    if isinstance(value, float):
        return torch.full((), value, dtype=torch.float32)
    return value


class StackedList:
    """What ``acc`` holds after ``for t in range(n): ...; acc.append(y)`` became a scan: the
    appended values stacked along a new dim 0. ``torch.stack``/``torch.cat`` on it (routed
    through the runtime) become a movedim/reshape of the scan output."""

    def __init__(self, prefix: list, stacked: torch.Tensor, suffix: list | None = None):
        if isinstance(prefix, StackedList):  # a loop appending to what an earlier loop filled
            stacked, prefix = torch.cat([prefix.stacked_with_prefix(), stacked]), []
        self.prefix = list(prefix)
        self.stacked = stacked
        self.suffix = list(suffix or [])

    def stacked_with_prefix(self) -> torch.Tensor:
        """Every value in order (the prefix, the loop's rows, values added after), stacked."""
        if not self.prefix and not self.suffix:
            return self.stacked
        parts = [self._rows(self.prefix)] if self.prefix else []
        parts.append(self.stacked)
        if self.suffix:
            parts.append(self._rows(self.suffix))
        return torch.cat(parts, 0)

    def _rows(self, values: list) -> torch.Tensor:
        """Values before or after the loop's stacked as rows like its own: Python numbers (``sites =
        [0]`` before a loop appends ``i + 1``) as 0-d tensors of the rows' dtype."""
        rows = [
            v if isinstance(v, torch.Tensor) else as_tensor_value(v).to(self.stacked.dtype)
            for v in made_rows(values)
        ]
        return torch.stack(rows, 0)

    def __add__(self, other):
        """``outs + [x]``: values after the loop's; ``xs + ys`` of two loops' lists: their rows."""
        if isinstance(other, (list, tuple)):
            return StackedList(self.prefix, self.stacked, self.suffix + list(other))
        if isinstance(other, StackedList):
            rows, more = self.stacked_with_prefix(), other.stacked_with_prefix()
            if rows.shape[1:] != more.shape[1:]:  # `[a] * n + [b] * m`, tensors of two shapes
                shapes = f"{tuple(rows.shape[1:])} and {tuple(more.shape[1:])}"
                raise ValueError(
                    f"lists of tensors of shapes {shapes} joined: such a list is one table in the graph, so its tensors need one shape (pad them to one length)"
                )
            return StackedList([], torch.cat([rows, more]))
        return NotImplemented

    def __radd__(self, other):
        """``[x] + outs``: values before the loop's."""
        if isinstance(other, (list, tuple)) and not self.suffix:
            return StackedList(list(other) + self.prefix, self.stacked)
        return NotImplemented

    def append(self, value) -> None:
        """A value appended after the loop."""
        self.suffix.append(value)

    def extend(self, values) -> None:
        """``xs.extend(more)`` after the loop."""
        if isinstance(values, StackedList):
            self.prefix, self.suffix = [], []
            self.stacked = torch.cat([self.stacked_with_prefix(), values.stacked_with_prefix()])
        else:
            self.suffix.extend(values)

    def pop(self, index: int = -1):
        """``xs.pop()``: the last value, taken off the rows (other positions: as Python does)."""
        if index != -1:
            rows = self.stacked_with_prefix()
            value = rows[index]
            self.prefix, self.suffix = [], []
            self.stacked = torch.cat([rows[:index], rows[index + 1 :]]) if index != 0 else rows[1:]
            return value
        if self.suffix:
            return self.suffix.pop()
        rows = self.stacked_with_prefix()
        self.prefix, self.stacked = [], rows[:-1]
        return rows[-1]

    def copy(self) -> StackedList:
        """``xs.copy()`` / ``list(xs)``: the same values in a list of their own."""
        return StackedList(list(self.prefix), self.stacked, list(self.suffix))

    def __reversed__(self):
        """``reversed(xs)`` (then ``list(...)`` or ``torch.stack(...)``): the rows flipped."""
        flipped = self.copy()
        flipped.reverse()
        return flipped

    def reverse(self) -> None:
        """``outs.reverse()`` after the loop (a bidirectional RNN's backward states)."""
        self.prefix, self.suffix = list(reversed(self.suffix)), list(reversed(self.prefix))
        self.stacked = self.stacked.flip(0)

    def length(self):
        """The number of values (a symbolic size when the loop's trip count is data-dependent)."""
        return len(self.prefix) + self.stacked.shape[0] + len(self.suffix)

    def __len__(self) -> int:
        return self.length()

    def __getitem__(self, index):
        if isinstance(index, slice) and index.stop is None and index.step in (None, 1):
            start = 0 if index.start is None else index.start  # (`or` would guard on a symbolic start)
            if isinstance(start, int) and not is_sym_int(start) and 0 <= start <= len(self.prefix):
                # `preds[1:]` dropping a seed value: still a list (`preds[1:] + [x]`, torch.cat)
                return StackedList(self.prefix[start:], self.stacked, self.suffix)
        if isinstance(index, slice) and _reversing(
            index
        ):  # `xs[::-1]`: the rows flipped (torch has no negative steps)
            flipped = reversed(self)
            return (
                flipped
                if index.step == -1
                else StackedList([], flipped.stacked_with_prefix()[:: -index.step])
            )
        if isinstance(index, slice):  # `xs[-3:]`, `xs[::2]`: a list of those rows
            return StackedList([], self.stacked_with_prefix()[index])
        rows = self.stacked_with_prefix()
        if isinstance(index, int) and free_unbacked_symbols(rows.shape[0]):
            return _row_of_data_dependent_length(rows, index)
        return rows[index]

    def __iter__(self):
        return iter(self.stacked_with_prefix().unbind(0))


def _reversing(index: slice) -> bool:
    """``[::-k]``: every k-th value from the last."""
    return index.start is None and index.stop is None and isinstance(index.step, int) and index.step < 0


def list_truth(value: object) -> object:
    """``if xs:`` / ``not xs`` on a list a converted loop filled: ``len(xs) > 0``, symbolic when
    its length is (Python's truth test would specialise it); any other value as it is."""
    if isinstance(value, StackedList):
        return value.length() > 0
    if is_row_list(value):  # a list a graph loop carries: its count is a tensor
        return value.length() > 0
    return value


def _row_of_data_dependent_length(rows: torch.Tensor, index: int) -> torch.Tensor:
    """``xs[0]`` / ``xs[-1]`` of a list with a data-dependent length (maybe 0), read under `if
    len(xs) > 0` or computed on both paths of a select: torch cannot prove the index in range, so
    the row is gathered from the rows plus one zero row at a clamped position (the zero row is
    read only where Python would have raised)."""
    n = rows.shape[0]
    padded = torch.cat([rows, rows.new_zeros((1, *rows.shape[1:]))])
    position = torch.full((), 1, dtype=torch.int64) * (index if index >= 0 else n + index)
    position = torch.minimum(position.clamp(min=0), torch.full((), 1, dtype=torch.int64) * n)
    return padded.index_select(0, position.reshape(1)).squeeze(0)


def is_row_list(value: object) -> bool:
    """A list a graph loop carries (row_lists.RowList). Asked of the type: dynamo cannot answer
    ``hasattr`` on a symbolic size (``torch.tensor(len(xs))`` in a cond branch)."""
    return hasattr(type(value), "to_stacked")


def as_rows(value: object) -> object:
    """A list a graph loop carries (row_lists.RowList), or a comprehension's kept rows (kept_rows.
    KeptRows), as the StackedList of its rows; else as is."""
    if type(value).__name__ == "KeptRows":
        return value.kept()
    return value.to_stacked() if is_row_list(value) else value


def stack(tensors, dim: int = 0, *, out=None):
    """torch.stack that also takes a StackedList (a converted loop's appended values)."""
    tensors = as_rows(tensors)
    if isinstance(tensors, StackedList) and out is None:
        rows = tensors.stacked_with_prefix()
        # no permute for dim 0: its meta asks whether dims of size ``n - 1`` are 1 (a guard on n)
        return rows if dim in (0, -rows.dim()) else rows.movedim(0, dim)
    return torch.stack(tensors, dim) if out is None else torch.stack(tensors, dim, out=out)


def cat(tensors, dim: int = 0, *, out=None):
    """torch.cat that also takes a StackedList: stack at ``dim`` then merge it with the next dim."""
    tensors = as_rows(tensors)
    if isinstance(tensors, StackedList) and out is None:
        stacked = tensors.stacked  # (T, *shape); values before/after the loop's may differ in size
        dim = dim % (stacked.dim() - 1)
        moved = stacked.movedim(0, dim)  # (..., T, shape[dim], ...)
        merged = moved.flatten(dim, dim + 1)
        parts = [*tensors.prefix, merged, *tensors.suffix]
        return merged if len(parts) == 1 else torch.cat(parts, dim)
    return torch.cat(tensors, dim) if out is None else torch.cat(tensors, dim, out=out)


def take_last(values):
    """The last value of a plain list, removed from it (None for an empty list): the pending last
    entry of a list a loop overwrites with ``xs[-1] = v`` (passes/list_lengths.py)."""
    if isinstance(values, StackedList):
        raise TypeError("`xs[-1] = v` in a loop over a list an earlier converted loop filled")
    return values.pop() if len(values) > 0 else None


def _with_a_row(rows: StackedList, thunk):
    """``thunk()`` with ``rows`` holding at least one row (its own, else one zero row)."""
    saved = rows.prefix, rows.stacked, rows.suffix
    stacked = rows.stacked_with_prefix()
    padded = torch.cat([stacked, stacked.new_zeros((1, *stacked.shape[1:]))])
    rows.prefix, rows.stacked, rows.suffix = [], padded.narrow(0, 0, torch.sym_max(stacked.shape[0], 1)), []
    try:
        return thunk()
    finally:
        rows.prefix, rows.stacked, rows.suffix = saved


def append_if(values, test, thunk):
    """``if test: values.append(thunk())`` (passes/appends.py): plain Python on a Python test; on a
    tensor test while exporting, a StackedList whose last row is kept only where ``test`` holds.
    A list as the test (``if current:`` of a list a loop filled) is its length's truth; the graph
    computes the value whether the list is empty or not, from at least one row (a zero row where it
    is empty: a softmax over no rows crashes LiteRT's kernels)."""
    tested, test = test, list_truth(test)
    if not (is_tracing() and is_symbolic(test)):
        if test:
            values.append(thunk())
        return values
    value = torch.as_tensor(_with_a_row(tested, thunk) if isinstance(tested, StackedList) else thunk())
    if isinstance(values, StackedList):
        rows = values.stacked_with_prefix()
    elif values:
        rows = torch.stack([torch.as_tensor(v) for v in values])
    else:
        rows = value.new_zeros((0, *value.shape))
    if isinstance(test, torch.SymBool):  # `if not xs:` of a list whose length is data-dependent
        test = torch.scalar_tensor(torch.sym_ite(test, 1, 0)) > 0
    keep = torch.cat([torch.ones(rows.shape[0], dtype=torch.bool), torch.as_tensor(test).reshape(1).bool()])
    return StackedList([], torch.cat([rows, value.unsqueeze(0)])[keep])


def zeros_shaped_like(value: torch.Tensor) -> torch.Tensor:
    """Zeros with ``value``'s dtype and shape, built from the shape alone when it is static, so
    nothing reads ``value``: a placeholder taken from the other branch then leaves that branch's
    computation dead, and it is dropped instead of running on inputs it was never meant for
    (e.g. row 0 of an empty selection)."""
    if all(isinstance(size, int) for size in value.shape):
        return torch.zeros(tuple(value.shape), dtype=value.dtype, device=value.device)
    return torch.zeros_like(value)
