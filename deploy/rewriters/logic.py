"""The boolean operators of converted tests: ``and``/``or``/``not`` (short-circuiting on Python
values, logical ops on tensors) and single comparisons (a dynamic size compared as a 0-d tensor, so
a branch on it stays a cond for every size; the comparison's SymBool is kept for size_clamps)."""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

from deploy.rewriters.size_branches import mark_combined, mark_negated, mark_size_predicate
from deploy.rewriters.values import (
    as_predicate,
    as_tensor_value,
    is_sym_bool,
    is_sym_int,
    is_symbolic,
    is_tracing,
    list_truth,
)


def _bool_tensor(value: object) -> torch.Tensor:
    if isinstance(value, torch.Tensor):
        return as_predicate(value)
    if is_sym_bool(value):
        return as_tensor_value(value)
    return torch.full((), bool(value), dtype=torch.bool)


def and_(*thunks) -> object:
    """``a and b and ...``: short-circuits on Python values, logical_and on tensors."""
    return _chain(thunks, "and")


def or_(*thunks) -> object:
    """``a or b or ...``: short-circuits on Python values, logical_or on tensors."""
    return _chain(thunks, "or")


def _chain(thunks, how: str) -> object:
    combine = torch.logical_and if how == "and" else torch.logical_or
    value = thunks[0]()
    for thunk in thunks[1:]:
        # a list a graph loop carries is a (buffer, count) tuple, always truthy: its length decides
        value = list_truth(value)
        if is_symbolic(value):
            left, right = truth(value), truth(thunk())
            if type(right) is bool and right != (how == "and"):
                # `big and depth < limit` with the limit reached: False whatever `big` is (a cond
                # there would trace a branch that recurses past the limit)
                return right
            value = mark_combined(combine(_bool_tensor(left), _bool_tensor(right)), left, right, how)
        elif bool(value) != (how == "and"):  # `and` stops at a falsy value, `or` at a truthy one
            return value
        else:
            value = thunk()
    return value


def member(value: object, options: object, negated: bool) -> object:
    """``value in (a, b)`` / ``not in``: on a tensor (a state a converted loop carries), an ``or`` of
    equalities; Python's ``in`` would call bool() on each tensor comparison. ``value in TABLE`` of a
    dict, list, tuple or set of numbers likewise (its keys or entries); any other ``in`` is Python's."""
    table = isinstance(options, (dict, list, tuple, set, frozenset, range))
    if table and not isinstance(options, tuple):
        table = all(type(option) in (int, float) for option in options)
        options = tuple(options) if table else options
    if not is_symbolic(value) or not table or not options:
        found = value in options
        return not found if negated else found
    found = or_(*[lambda option=option: compare(value, "eq", option) for option in options])
    return not_(found) if negated else found


def not_(value: object) -> object:
    """``not a``: logical_not on tensors, sym_not on symbolic sizes."""
    value = truth(value)
    if is_symbolic(value):
        if is_sym_bool(value):
            return torch.sym_not(value)
        return mark_negated(torch.logical_not(as_predicate(value)), value)
    return not value


_COMPARE = {
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
}


def _size_tensor(value: object) -> object:
    if is_sym_int(value):
        return as_tensor_value(value)
    return value


def _is_size(value: object) -> bool:
    return is_sym_int(value) or (isinstance(value, int) and not isinstance(value, bool))


def _float_tensor(value: object) -> object:
    # an unbacked float (``top = x.max().item()``) compared as a 0-d tensor: conds whose branches
    # compare it again cannot trace SymFloat arithmetic
    if isinstance(value, torch.SymFloat):
        return torch.full((), 1.0, dtype=torch.float64) * value
    return value


def compare(left: object, operator: str, right: object) -> object:
    """``left <op> right`` in a test; a dynamic size operand is compared as a 0-d tensor while
    exporting, so the branch stays a cond for every size in the dynamic range (sizes 0 and 1 too)."""
    if is_tracing() and operator in ("eq", "ne") and _same_length_tuples(left, right):
        # `(rr - dr, cc - dc) != (r, c)` of ints read from tensors: entry by entry, as Python
        # compares tuples (dynamo cannot compare tuples of symbolic entries)
        pairs = [lambda a=a, b=b: compare(a, operator, b) for a, b in zip(left, right)]
        return and_(*pairs) if operator == "eq" else or_(*pairs)
    if is_tracing() and (is_sym_int(left) or is_sym_int(right)):
        test = _COMPARE[operator](left, right) if _is_size(left) and _is_size(right) else None
        left, right = _size_tensor(left), _size_tensor(right)
        return mark_size_predicate(_COMPARE[operator](left, right), test)
    if is_tracing() and (isinstance(left, torch.SymFloat) or isinstance(right, torch.SymFloat)):
        left, right = _float_tensor(left), _float_tensor(right)
    return _COMPARE[operator](left, right)


def _same_length_tuples(left: object, right: object) -> bool:
    tuples = isinstance(left, tuple) and isinstance(right, tuple) and len(left) == len(right)
    return tuples and any(is_symbolic(v) or isinstance(v, torch.Tensor) for v in (*left, *right))


def truth(value: object) -> object:
    """The truth value a test reads: a list a converted loop filled (``values.list_truth``); a
    symbolic size (``if pad_h or pad_w:`` with ``pad_h = (-h) % 32``) is the size predicate
    ``value != 0`` while exporting: Python's truth test would guard on it (undecidable for a size a
    branch changed) and torch.cond takes no SymInt."""
    value = list_truth(value)
    if is_tracing() and is_sym_int(value):
        return compare(value, "ne", 0)
    return value


def equal(left: object, right: object) -> object:
    """``torch.equal(a, b)`` (a still life: the next state equals the last): while exporting, of two
    tensors of one dtype and provably one shape, ``(a == b).all()``, a 0-d tensor a cond can test;
    torch.equal's Python bool would be specialised to the example's answer."""
    from deploy.rewriters.shape_cond import same_shape  # (shape_cond imports this module's users)

    tensors = isinstance(left, torch.Tensor) and isinstance(right, torch.Tensor)
    if is_tracing() and tensors and left.dtype == right.dtype:
        if same_shape(left, right):
            return (left == right).all()
        shapes = _backed_shapes_equal(left, right)
        if shapes is not None:  # decided by a guard on the sizes (two dims of one Dim: equal)
            return (left == right).all() if shapes else torch.zeros((), dtype=torch.bool)
    return torch.equal(left, right)


def _backed_shapes_equal(left: torch.Tensor, right: torch.Tensor) -> bool | None:
    """Whether two tensors' shapes are equal, where every size is a plain or backed symbolic int
    (outside dynamo): a guard, as eager's shape test. ``w @ state`` has ``w``'s row count and
    ``state`` the input's length, two symbols of one ``Dim`` that export unifies only afterwards.
    None where a size is data-dependent."""
    if left.dim() != right.dim():
        return False
    if torch.compiler.is_dynamo_compiling():
        return None
    sizes = (*left.shape, *right.shape)
    if any(is_sym_int(v) and free_unbacked_symbols(v) for v in sizes):
        return None
    return all(bool(a == b) for a, b in zip(left.shape, right.shape))


def kept_test(value: object) -> object:
    """A test taken before a branch that may change what it reads (passes/appends.py): a tensor is
    copied, since a view (``pending[pos]``) would see the branch's ``pending[pos] = False``."""
    return value.clone() if isinstance(value, torch.Tensor) else value
