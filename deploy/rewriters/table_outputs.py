"""A tensor `if` whose branches give one list as tables of different lengths, which torch.cond
(outputs of one structure) refuses:

    def directions(piece):                # constant tables
        if piece > 1.5:
            return KING_DIRS              # [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        return MAN_DIRS                   # [(-1, -1), (-1, 1)]

    if x.sum() > 0:                       # a graph loop's rows beside a list
        for i in range(x.shape[0]):
            out.append(x[i] * (i + 1))
    else:
        out.append(x.sum())               # or nothing: no rows on this path

After torch.cond refused the branches (operators._fallback; inside dynamo, where the branches are
probed already, operators._cond), each list output that is a table on both paths crosses the cond
as one tensor, one row per entry (a data-dependent number of rows):
- a list or tuple of numbers (Python's, or while exporting symbolic ints and 0-d tensors; also a
  ternary's one value, ``[d1] * 4 if d1 == d2 else [d1, d2]``) on both paths: the table's
  tensor, a StackedList after the cond; a loop over it is a graph loop reading one row per
  iteration (sequences.seq_item), as over any list a converted loop filled;
- a graph loop's rows on one path (a StackedList, boxed as its rows: stacked_outputs.py) and a list
  of tensors on the other, at the top level: that list stacked (no rows when it is empty), boxed
  like the rows. On a dynamic size (`if width > 128:` around `for i in range(width // 128)`) both
  branches are computed at the top level and the rows picked (stride_fallback.selected_sizes):
  inside torch.cond's branch a scan over `width // 128` would assume one iteration at least.
"""

from __future__ import annotations

import torch

from deploy.rewriters.casts import tensor
from deploy.rewriters.shape_cond import probed
from deploy.rewriters.stacked_outputs import Rows
from deploy.rewriters.values import StackedList, as_tensor_value


def _number(value: object) -> bool:
    """A Python number, or while exporting a symbolic int (``int(rolls[t, 0])`` in a loop body: `[d1]
    * 4 if d1 == d2 else [max(d1, d2), min(d1, d2)]`) or a 0-d tensor of numbers."""
    if isinstance(value, torch.Tensor):
        return value.dim() == 0 and value.dtype != torch.bool
    return isinstance(value, (int, float, torch.SymInt, torch.SymFloat)) and not isinstance(value, bool)


def _width(value: object) -> int | None:
    """The row width of a table (0: entries are numbers); None for anything else."""
    if not isinstance(value, (list, tuple)) or not value or hasattr(value, "_fields"):
        return None
    if all(_number(v) for v in value):
        return 0
    first = value[0]
    if not isinstance(first, (list, tuple)) or not first:
        return None
    if all(isinstance(v, (list, tuple)) and len(v) == len(first) and all(map(_number, v)) for v in value):
        return len(first)
    return None


def _list_beside_rows(value: object, rows: object) -> bool:
    """``value`` is a list that can stand for the boxed rows ``rows`` of the other branch: empty, or
    holding values computed in the branch. A list of Python numbers only is a fixed list of
    defaults (``if len(found) == 3: lines = found``), which selects.py picks as that many rows."""
    if not (isinstance(rows, Rows) and type(value) is list):
        return False
    return not value or any(isinstance(v, torch.Tensor) for v in value)


def _row_layout(boxed: Rows) -> tuple[tuple, torch.dtype]:
    return tuple(boxed.rows.shape[1:]), boxed.rows.dtype


def _stacked_like(values: list, row_shape: tuple, dtype: torch.dtype) -> Rows:
    """``values`` as rows of the other branch's row shape and dtype (as probed: the probe's tensor
    itself is never read in a branch, where dynamo would take it as an input of the graph)."""
    if not values:
        return Rows(torch.zeros((0, *row_shape), dtype=dtype))
    return Rows(torch.stack([as_tensor_value(v) for v in values]).to(dtype))


def table_cond(pred: object, then_fn, else_fn, cond, outputs: list | None = None):
    """``cond(pred, then, else)`` with the branches' differing tables as tensors (the result's
    constant tables as StackedLists, rows beside a list still boxed); None when the branches give
    no such tables (or it fails). ``outputs``: both branches' outputs, probed already (inside dynamo,
    where a branch is probed once only: a failure in a second probe leaves dynamo's cells unset)."""
    if outputs is None:
        try:
            outputs = [probed(fn, record=False, keep_facts=True) for fn in (then_fn, else_fn)]
        except Exception:  # any failure, ours too: the caller shows torch's first error
            return None
    if all(type(o) is list for o in outputs):  # a ternary's one value: `[d1] * 4 if d1 == d2 else [d1, d2]`
        one = table_cond(pred, lambda: (then_fn(),), lambda: (else_fn(),), cond, [(o,) for o in outputs])
        return None if one is None else one[0]
    if not all(isinstance(o, tuple) for o in outputs) or len(outputs[0]) != len(outputs[1]):
        return None
    pairs = list(zip(*outputs))
    tables = [
        i
        for i, (a, b) in enumerate(pairs)
        if _width(a) is not None and _width(a) == _width(b) and len(a) != len(b)
    ]
    # rows beside a list: at the top level only (inside a body dynamo traces, such a list is one the
    # loop carries as rows, which the loop's own fallbacks handle)
    beside = {
        i: _row_layout(a if isinstance(a, Rows) else b)
        for i, (a, b) in enumerate(pairs)
        if (_list_beside_rows(a, b) or _list_beside_rows(b, a)) and not torch.compiler.is_dynamo_compiling()
    }
    if not tables and not beside:
        return None

    def as_tensors(fn):
        def run_branch():
            values = list(fn())
            for i in tables:  # int64, or float32 where any entry is a float (as torch.tensor infers)
                values[i] = tensor([list(v) if isinstance(v, (list, tuple)) else v for v in values[i]])
            for i, (row_shape, dtype) in beside.items():
                if type(values[i]) is list:
                    values[i] = _stacked_like(values[i], row_shape, dtype)
            return tuple(values)

        return run_branch

    try:
        result = cond(pred, as_tensors(then_fn), as_tensors(else_fn))
    except Exception:  # any failure, ours too: the caller shows torch's first error
        return None
    if result is None:  # (stride_fallback.selected_sizes: the outputs do not line up)
        return None
    result = list(result)
    for i in tables:
        result[i] = StackedList([], result[i])
    return tuple(result)
