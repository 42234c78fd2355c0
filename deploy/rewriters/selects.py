"""Values across a cond (non-tensor outputs encoded as ints, see values.py) and the select that
computes both branches and picks their outputs with torch.where (used inside loop bodies, where a
cond nested in an ONNX Loop cannot be emitted, and as a fallback for conds torch refuses)."""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols, statically_known_true
from torch.utils import _pytree as pytree

from deploy.errors import NotDeployableError
from deploy.rewriters.branch_guards import both_branches
from deploy.rewriters.module_stack import kept_on_failure
from deploy.rewriters.padded_select import padded_select
from deploy.rewriters.shape_cond import same_shape, same_size
from deploy.rewriters.size_facts import equal_at_run_time, involves_unbacked, with_size
from deploy.rewriters.values import (
    NONE_CODE,
    UNDEFINED_CODE,
    StackedList,
    Undefined,
    as_predicate,
    as_tensor_value,
    is_sym_int,
)


def _encode(value: object) -> object:
    if isinstance(value, torch.Tensor):
        return value.clone()  # cond outputs may not alias its inputs
    if value is None:
        return NONE_CODE
    if isinstance(value, Undefined):
        return UNDEFINED_CODE
    if isinstance(value, bool):
        return torch.full((), value, dtype=torch.bool)
    if isinstance(value, float):
        return torch.full((), value, dtype=torch.float32)
    return value


def _decode(value: object) -> object:
    if isinstance(value, int) and not isinstance(value, bool):
        if value == NONE_CODE:
            return None
        if value == UNDEFINED_CODE:
            return Undefined("?")
    return value


def _where(pred: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.dtype == torch.bool and b.dtype == torch.bool:  # onnxruntime has no Where for bool
        return torch.logical_or(torch.logical_and(pred, a), torch.logical_and(torch.logical_not(pred), b))
    return torch.where(pred, a, b)


def select(pred: torch.Tensor, then_fn, else_fn):
    """Both branches computed, outputs picked by torch.where; None when the outputs do not line up."""
    # at the top level, each branch's loops run only on the path taken (branch_guards.py)
    then_out, else_out = _as_rows_beside_lists(*both_branches(pred, then_fn, else_fn))
    then_leaves, then_spec = pytree.tree_flatten(then_out)
    else_leaves, else_spec = pytree.tree_flatten(else_out)
    if then_spec != else_spec:
        return None
    picked = []
    for a, b in zip(then_leaves, else_leaves):
        if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
            a, b = as_tensor_value(a), as_tensor_value(b)
            if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
                return None
            a, b = _broadcast_scalar(a, b)
            if not same_shape(a, b):
                a, b = _equal_sizes(a, b)
                if a is None:
                    return None
            if a.dtype != b.dtype:
                return None
            picked.append(_where(pred, a, b))
        elif a is b or (type(a) is type(b) and _surely_equal(a, b)):
            picked.append(a)
        elif _number(a) and _number(b):  # `n = 12` / `n` (an `.item()`): a 0-d tensor of the two
            picked.append(_where(pred, as_tensor_value(a), as_tensor_value(b)))
        else:
            return None
    return pytree.tree_unflatten(picked, then_spec)


def _as_rows_beside_lists(then_out: object, else_out: object) -> tuple[object, object]:
    """Outputs where one path leaves a list a loop filled (a StackedList) and the other a Python list
    of ``k`` numbers (``if len(found) == 7: ladder = found``, else 7 defaults): both as ``k`` rows,
    the loop's first ``k`` (a zero row past its end, on the path not taken)."""
    if not (isinstance(then_out, tuple) and isinstance(else_out, tuple) and len(then_out) == len(else_out)):
        return then_out, else_out
    pairs = [
        _rows_beside(a, b) if isinstance(a, StackedList) else _rows_beside(b, a)[::-1]
        for a, b in zip(then_out, else_out)
    ]
    return tuple(a for a, _ in pairs), tuple(b for _, b in pairs)


def _rows_beside(rows: object, values: object) -> tuple[object, object]:
    numbers = isinstance(values, (list, tuple)) and values and not isinstance(values, StackedList)
    if not (isinstance(rows, StackedList) and numbers):
        return rows, values
    if not all(_number(v) or (isinstance(v, torch.Tensor) and v.dim() == 0) for v in values):
        return rows, values
    listed = torch.stack([as_tensor_value(v) for v in values])
    stacked = rows.stacked_with_prefix()
    if stacked.dim() != 1:
        return rows, values
    padded = torch.cat([stacked, stacked.new_zeros(1)])
    positions = torch.arange(len(values)).clamp(max=as_tensor_value(stacked.shape[0]))
    dtype = torch.promote_types(stacked.dtype, listed.dtype)
    return padded.index_select(0, positions).to(dtype), listed.to(dtype)


def _surely_equal(a: object, b: object) -> bool:
    """``a == b``, without a guard for symbolic ints (torch cannot decide ``Eq(12, u17)``)."""
    if is_sym_int(a) or is_sym_int(b):  # (inside dynamo a SymInt poses as an int: no proof there)
        return not torch.compiler.is_dynamo_compiling() and statically_known_true(a == b)
    return a == b


def _number(value: object) -> bool:
    return isinstance(value, (bool, int, float, torch.SymInt))


def _equal_sizes(a: torch.Tensor, b: torch.Tensor):
    """``a`` and ``b`` with one shape where their sizes differ only as torch sees them (size_facts);
    (None, None) otherwise, and inside a body dynamo traces (sizes pose as ints there)."""
    if a.dim() != b.dim() or torch.compiler.is_dynamo_compiling():
        return None, None
    for dim, (x, y) in enumerate(zip(a.shape, b.shape)):
        if same_size(x, y):
            continue
        if not (involves_unbacked(x, y) and equal_at_run_time(x, y)):
            return None, None
        if free_unbacked_symbols(x):
            a = with_size(a, dim, y)
        else:
            b = with_size(b, dim, x)
    return a, b


def _broadcast_scalar(a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``factor = 1.0`` on one path, ``factor = sigmoid(fc(h))`` of shape (N,) on the other: the
    0-d side expanded to the other's shape (what every elementwise use broadcasts it to; a use
    that needs the 0-d value would differ from eager, which verification reports)."""
    if a.dim() == 0 and b.dim() > 0 and a.dtype == b.dtype:
        return a.expand(b.shape), b
    if b.dim() == 0 and a.dim() > 0 and a.dtype == b.dtype:
        return a, b.expand(a.shape)
    return a, b


def select_at_top_level(pred, then_fn, else_fn):
    """A cond torch cannot trace (dynamo traces the branches: a size branch nested in them, an
    allocation by ``.item()``...), above all the rest of a function after an early ``return``: both
    branches computed at the top level, where the exporter traces everything else, and the outputs
    picked with torch.where; outputs whose sizes differ (an empty result on the early path, a
    data-dependent number of rows on the other) are zero-padded to one size, picked and cut to the
    taken path's size (padded_select.py). None when that fails too or the outputs do not line up."""
    if torch.compiler.is_dynamo_compiling() or not isinstance(pred, torch.Tensor):
        return None
    try:
        with kept_on_failure():
            pred = as_predicate(pred)
            then_out, else_out = both_branches(pred, then_fn, else_fn)  # (branch_guards.py)
            selected = select(pred, lambda: then_out, lambda: else_out)
            if selected is None:
                selected = padded_select(pred, lambda: then_out, lambda: else_out, _where)
        return selected
    except NotDeployableError:
        raise
    except Exception:  # torch's many internal error types: the cond's error names the user's line
        return None
