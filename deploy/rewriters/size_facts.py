"""Sizes that are equal at run time though torch cannot prove it from its symbols.

A chunked loop over ``range(0, h, 64)`` runs ``u = (h - 1) // 64`` full chunks (an unbacked size, so
torch.export assumes nothing about it) and then the last one: the bands it concatenates are
``64*u + max(0, min(h, 64*u + 64) - 64*u)`` rows, which is ``h`` for every ``h``, but torch sees two
unrelated sizes and a select between that and the other branch's ``h`` rows fails. The loops and
size branches that create such a size record what it is (``define``, ``define_choice``); ``equal_at_run_time`` substitutes those
definitions and checks the two sizes agree for every value of the one symbol left: a dynamic dim
over its whole range, or an unbacked size over 2..256 (as torch.export assumes a dynamic dim is not
0 or 1; a size of 0 or 1 may differ, as it may for a dim). Where sizes are equal,
``with_size`` gives a tensor that size (a gather at ``arange(size)``, a no-op at run time).

A probe of a cond's branches (shape_cond.probed) traces with guards suppressed; torch then also drops
the facts its ops assert about the sizes they make (``slice`` checks its new size is ``>= 0``), so the
next op asks ``u0 < 0`` and fails. ``suppressed_guards`` keeps such a fact as the size's lower bound
(only non-negativity, only for sizes made inside it): the size exists only in the probe.
"""

from __future__ import annotations

import contextlib
import weakref

import torch
from torch.fx.experimental.symbolic_shapes import ShapeEnv, free_unbacked_symbols, statically_known_true

from deploy.patching import patched

_DEFINED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # shape env -> {symbol: expr}
_MAX_VALUES = 4096


def define(unbacked: object, value: object) -> None:
    """Record that the unbacked size ``unbacked`` is ``value`` (an expression of other sizes)."""
    import sympy

    if not isinstance(unbacked, torch.SymInt) or not unbacked.node.expr.is_Symbol:
        return
    env = unbacked.node.shape_env
    _DEFINED.setdefault(env, {})[unbacked.node.expr] = (
        value if isinstance(value, sympy.Basic) else _expr(value)
    )


def define_choice(unbacked: object, pred: object, then_size: object, else_size: object) -> None:
    """Record that ``unbacked`` is ``then_size`` where the size test behind ``pred`` holds, else
    ``else_size`` (a size branch's output: ``x`` pooled to ``(t + 1) // 2`` rows when ``t > 64``)."""
    import sympy

    test = getattr(pred, "_deploy_size_test", None)
    if not isinstance(test, torch.SymBool) or not isinstance(unbacked, torch.SymInt):
        return
    define(unbacked, sympy.Piecewise((_expr(then_size), test.node.expr), (_expr(else_size), True)))


def _expr(size):
    import sympy

    return size.node.expr if isinstance(size, torch.SymInt) else sympy.Integer(int(size))


def equal_at_run_time(a, b) -> bool:
    if statically_known_true(a == b):
        return True
    env = next((s.node.shape_env for s in (a, b) if isinstance(s, torch.SymInt)), None)
    if env is None:
        return False
    difference = _expr(a) - _expr(b)
    defined = _DEFINED.get(env, {})
    for _ in range(3):  # definitions may refer to other defined sizes
        if not difference.free_symbols & set(defined):
            break
        difference = difference.subs(defined)
    free = difference.free_symbols
    if len(free) != 1:
        return len(free) == 0 and difference == 0
    (symbol,) = free
    if str(symbol).startswith("u"):
        values = range(2, 257)
    else:
        bounds = env.var_to_range.get(symbol)
        low, high = _finite(bounds.lower if bounds else None), _finite(bounds.upper if bounds else None)
        if low is None or high is None or high - low > _MAX_VALUES:
            return False
        values = range(max(low, 0), high + 1)
    return all(difference.subs(symbol, k) == 0 for k in values)


def _finite(bound) -> int | None:
    try:
        return int(bound)
    except (TypeError, AttributeError, OverflowError, ValueError):
        return None


def involves_unbacked(a, b) -> bool:
    return bool(free_unbacked_symbols(a) or free_unbacked_symbols(b))


def with_size(value: torch.Tensor, dim: int, size) -> torch.Tensor:
    """``value`` given ``size`` in ``dim`` (checked equal at run time by the caller)."""
    return value.index_select(dim, torch.arange(size, device=value.device))


@contextlib.contextmanager
def suppressed_guards(env: ShapeEnv | None):
    """``env.suppress_guards()`` that still bounds each unbacked size made within (in ``env``) below by
    the facts torch asserts about it: a size is not negative."""
    if env is None:
        yield
        return
    if torch.compiler.is_dynamo_compiling():
        with env.suppress_guards():
            yield
        return
    known = {s for s in env.var_to_range if _unbacked(s)}
    original = ShapeEnv.guard_or_defer_runtime_assert

    def asserting(self, expr, msg, fx_node=None):
        result = original(self, expr, msg, fx_node)
        if ShapeEnv._suppress_guards_tls() and self is env:
            _refine_fresh(self, expr, known)
        return result

    with patched(ShapeEnv, "guard_or_defer_runtime_assert", asserting), env.suppress_guards():
        yield


@contextlib.contextmanager
def guards_recorded():
    """Within: guards and run-time assertions recorded even where an enclosing context suppresses
    them (a branch trusted by trusting_size_branches), for facts that hold whatever the branch does
    (the bounds of a size a cond picked: shape_cond.check_bounds). A no-op inside dynamo."""
    from torch.fx.experimental import symbolic_shapes

    tls = symbolic_shapes.TLS
    if torch.compiler.is_dynamo_compiling() or not getattr(tls, "suppress_guards", False):
        yield
        return
    tls.suppress_guards = False
    try:
        yield
    finally:
        tls.suppress_guards = True


def _refine_fresh(env: ShapeEnv, expr, known: set) -> None:
    """Raise the lower bound of each unbacked size in ``expr`` not in ``known`` by ``expr`` (a fact
    such as a slice's ``u0 >= 0``)."""
    import sympy
    from torch.utils._sympy.numbers import int_oo
    from torch.utils._sympy.solve import try_solve
    from torch.utils._sympy.value_ranges import ValueRanges, bound_sympy

    for symbol in expr.free_symbols:
        if symbol in known or not _unbacked(symbol) or symbol not in env.var_to_range:
            continue
        try:
            solved = try_solve(env.simplify(expr), symbol)
            if solved is None or not solved[1].is_integer:
                continue
            relation, rhs = solved
            bounds = bound_sympy(rhs, env.var_to_range)
            if not isinstance(relation, (sympy.Ge, sympy.Gt)):
                continue  # lower bounds only: an upper bound or an equation relates sizes a probe
                # made to others, which later facts (size_facts.define_choice) would build on
            lower = min(bounds.lower + int(isinstance(relation, sympy.Gt)), 0)  # a size: not negative
            current = env.var_to_range[symbol]
            new = current & ValueRanges(lower, int_oo)
        except Exception:  # sympy's and value ranges' many failure types: no fact then
            continue
        if new != current and not new.is_singleton() and new.lower <= new.upper:
            env._update_var_to_range(symbol, new)
            env._maybe_evaluate_static.cache_clear()


def _unbacked(symbol) -> bool:
    from torch.fx.experimental.symbolic_shapes import SymT, symbol_is_type

    return symbol_is_type(symbol, SymT.UNBACKED_INT)
