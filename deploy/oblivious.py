"""Size decisions taken size-obliviously: the exporter's last retry (exporter/export._size_oblivious)
and the ONNX translation of a program exported that way (runtimes/onnx/emit.py).

Backed sizes: torch's ``backed_size_oblivious`` (a metadata check such as "is this dim of size
``n - 1`` equal to 1?" no longer guards on the example's size).

Unbacked sizes: a value a converted loop left with a data-dependent length (2-opt moves that keep a
tour's length, which torch cannot prove: ``tour[:i]``, ``tour[i:j + 1]`` with ``i, j`` from an
``.item()``) reaches ops whose torch definition asks whether the size is 0 (``Tensor.roll``: ``if
a.numel() == 0``); torch cannot decide that and stops. Within ``unbacked_sizes_oblivious()`` such a
question about sizes (unbacked symbols torch knows are ``>= 0``) that torch cannot decide is answered
as torch's size-oblivious reasoning does for size-like symbols (a size is not 0 or 1, the general
path), the way ``guard_or_false`` does in the ops torch has migrated. A question about any other
unbacked value (an ``.item()`` of unknown sign) still fails. Verification at the verify inputs checks
the program against eager.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import sympy
import torch
from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode, ShapeEnv, free_unbacked_symbols

from deploy.patching import patched

_DATA_DEPENDENT = ("GuardOnDataDependentSymNode", "data-dependent", "DataDependent")


def is_data_dependent(exc: BaseException) -> bool:
    """Whether ``exc`` is torch failing to decide something about a data-dependent (unbacked) value."""
    return any(m in str(exc) or m in type(exc).__name__ for m in _DATA_DEPENDENT)


class _Used:
    unbacked = 0


@contextmanager
def size_oblivious(backed: bool = True) -> Iterator[_Used]:
    """Within: unbacked (and with ``backed``, backed) size decisions taken size-obliviously;
    ``.unbacked`` counts the undecidable questions about unbacked sizes answered that way."""
    with ExitStack() as stack:
        if backed:
            stack.enter_context(torch.fx.experimental._config.patch(backed_size_oblivious=True))
        yield stack.enter_context(unbacked_sizes_oblivious())


@contextmanager
def unbacked_sizes_oblivious() -> Iterator[_Used]:
    used = _Used()
    original = ShapeEnv.evaluate_expr

    def evaluate_expr(
        self, orig_expr, hint=None, fx_node=None, size_oblivious=False, fallback_value=None, **kw
    ):
        try:
            return original(self, orig_expr, hint, fx_node, size_oblivious, fallback_value, **kw)
        except GuardOnDataDependentSymNode:
            decided = _decided_obliviously(self, orig_expr)
            if decided is None:
                raise
            used.unbacked += 1
            return decided

    with patched(ShapeEnv, "evaluate_expr", evaluate_expr):
        yield used


def _decided_obliviously(env: ShapeEnv, expr: sympy.Basic) -> sympy.Basic | None:
    """``expr`` (a bool) evaluated with its unbacked symbols taken as sizes of at least 2, else at
    every value its symbols' ranges allow (``_same_everywhere``); None when one of them is not known
    to be a size (``>= 0`` and able to exceed 1) or the answer still depends on them."""
    if not isinstance(expr, sympy.logic.boolalg.Boolean):
        return None
    unbacked = free_unbacked_symbols(expr)
    if not unbacked or not all(_size_like(env, symbol) for symbol in unbacked):
        return None
    added = unbacked - env.size_like
    env.size_like |= added
    try:
        value = env._maybe_evaluate_static(expr, size_oblivious=True)
    finally:
        env.size_like -= added
    if value is sympy.true or value is sympy.false:
        return value
    return _same_everywhere(env, expr)


_MOST_POINTS = 4096


def _same_everywhere(env: ShapeEnv, expr: sympy.Basic) -> sympy.Basic | None:
    """``expr``'s value when it is the same at every point of its symbols' (finite, small) ranges:
    ``2 * ((h - 1) // 2) >= h`` (max_pool2d's ceil_mode check on a height a size branch picked, in
    [8, 128]) is false at each. Sound: no value the program can meet answers otherwise. None when
    the ranges are unbounded or too large, or the answer differs somewhere."""
    symbols = sorted(expr.free_symbols, key=str)
    spans = []
    for symbol in symbols:
        bounds = env.var_to_range.get(symbol)
        try:
            low, high = int(bounds.lower), int(bounds.upper)
        except (AttributeError, TypeError, ValueError, OverflowError):  # unbounded (sympy's oo)
            return None
        spans.append(range(low, high + 1))
    points = 1
    for span in spans:
        points *= len(span)
    if not symbols or points > _MOST_POINTS:
        return None
    answers = set()
    for values in itertools.product(*spans):
        answer = expr.xreplace({s: sympy.Integer(v) for s, v in zip(symbols, values)})
        if answer not in (sympy.true, sympy.false):
            return None
        answers.add(answer)
        if len(answers) > 1:
            return None
    return answers.pop()


def _size_like(env: ShapeEnv, symbol: sympy.Symbol) -> bool:
    """A size: ``>= 0`` and able to exceed 1. A tensor's truth value read by ``.item()`` (``if
    x.sum() > 0`` left unconverted) is a symbol in ``[0, 1]``: answering it as a size would take one
    branch for every input, so the question fails as torch asks it."""
    bounds = env.var_to_range.get(symbol)
    return bounds is not None and bounds.lower >= 0 and bounds.upper > 1
