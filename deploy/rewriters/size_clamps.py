"""A branch on a dynamic size, traced with the sizes its test allows.

    if n < 8:                                    # n = ids.shape[1], dynamic, 32 in the example
        pad = torch.full((b, 8 - n), PAD_ID)     # only ever runs for n < 8

torch traces both branches of a cond at the example's sizes, and ops check their sizes with the
example's values: ``full((b, 8 - n))`` fails at n = 32 ("negative dimension"), ``prob.reshape(1)``
under ``if prob.numel() <= 1`` fails at a batch of 16, although neither line ever runs at such
sizes. When a cond fails this way, the branch whose test does not hold at the example reads
*clamped* copies of the tensors (and sizes) it closes over: each dim equal to the tested size ``s``
is cut to ``min(s, b)`` (``narrow``) or zero-padded to ``max(s, a)``, where ``[a, b]`` are the sizes
for which the branch runs. Wherever the branch runs, ``a <= s <= b`` and the clamp changes nothing;
while tracing, the branch sees sizes inside its range, which torch can prove things about. Nothing
is assumed, so nothing needs checking beyond the usual verification.
"""

from __future__ import annotations

import types

import sympy
import torch

from deploy.rewriters.values import StackedList


def store_test(result: torch.Tensor, test: object) -> None:
    """Keep the SymBool a size predicate came from on the predicate tensor."""
    if isinstance(test, torch.SymBool):
        result._deploy_size_test = test


def negate_test(result: torch.Tensor, pred: object) -> None:
    test = getattr(pred, "_deploy_size_test", None)
    if test is not None:
        result._deploy_size_test = torch.sym_not(test)


def combine_tests(result: torch.Tensor, left: object, right: object, how: str) -> None:
    a, b = getattr(left, "_deploy_size_test", None), getattr(right, "_deploy_size_test", None)
    if isinstance(a, torch.SymBool) and isinstance(b, torch.SymBool):
        result._deploy_size_test = (a & b) if how == "and" else (a | b)


def clamped_branches(pred: object, then_fn, else_fn):
    """``(then_fn, else_fn)`` with the branch whose test fails at the example's sizes reading
    clamped values; None when the test is not on one dynamic size or nothing is clamped. A test on
    one unbacked size (``len(peaks) < 2`` of a list a loop filled) has no example's size: each branch
    reads values clamped to the sizes it runs at (``diff`` of ``max(n, 2)`` rows)."""
    test = getattr(pred, "_deploy_size_test", None)
    node = getattr(test, "node", None)
    if node is None or node.shape_env is None:
        return None
    env, expr = node.shape_env, node.expr
    if len(expr.free_symbols) != 1:
        return None
    (symbol,) = expr.free_symbols
    if symbol not in env.backed_var_to_val:
        return _unbacked_clamps(env, expr, symbol, then_fn, else_fn)
    hint = int(env.backed_var_to_val[symbol])
    holds = _value(expr, symbol, hint)
    if holds is None:
        return None
    side = not holds  # the branch that does not run at the example's size
    bounds = _interval(expr, symbol, side, env, hint)
    if bounds is None:
        return None
    low, high = bounds
    if low <= hint <= high:
        return None  # not an interval apart from the example's size (`t % 4 != 0`): no clamp is exact
    target = high if hint > high else low
    fn = then_fn if side else else_fn
    # a clamp is valid for every size (a cut to at most s, a pad by at least 0); the decisions torch
    # takes at the example's size while making it (is the cut a no-op?) must not become guards
    with env.suppress_guards():
        clamped = rebound(fn, lambda v: _clamp(v, symbol, target, hint > target))
    if clamped is fn:
        return None
    return (clamped, else_fn) if side else (then_fn, clamped)


def on_unbacked_size(pred: object) -> bool:
    """The size test behind ``pred`` is on one unbacked size (a count a loop left, an ``.item()``)."""
    node = getattr(getattr(pred, "_deploy_size_test", None), "node", None)
    free = node.expr.free_symbols if node is not None else ()
    return len(free) == 1 and str(next(iter(free))).startswith("u")


def _unbacked_clamps(env, expr, symbol, then_fn, else_fn):
    """Both branches of a test on an unbacked size, each reading values cut to the largest and
    padded to the smallest size it runs at (where its range is narrower than the size's)."""
    if not str(symbol).startswith("u"):
        return None
    known = env.var_to_range.get(symbol)
    lowest = _as_int(known.lower, 0) if known is not None else 0
    highest = _as_int(known.upper, None) if known is not None else None
    fns = []
    for side, fn in ((True, then_fn), (False, else_fn)):
        bounds = _interval(expr, symbol, side, env, None)
        if bounds is None or not _contiguous(expr, symbol, side, bounds):
            return None
        low, high = bounds
        with env.suppress_guards():
            if highest is None or high < highest:
                fn = (
                    rebound(fn, lambda v, high=high: _clamp(v, symbol, high, True))
                    if high < _NO_UPPER
                    else fn
                )
            if low > lowest:
                fn = rebound(fn, lambda v, low=low: _clamp(v, symbol, low, False))
        fns.append(fn)
    if fns[0] is then_fn and fns[1] is else_fn:
        return None
    return tuple(fns)


def _contiguous(expr, symbol, side: bool, bounds: tuple[int, int]) -> bool:
    """``expr`` is ``side`` for every size in ``bounds`` (checked up to a few hundred sizes)."""
    low, high = bounds
    return all(_value(expr, symbol, n) is side for n in range(low, min(high, low + 512) + 1))


def _value(expr, symbol, value: int) -> bool | None:
    result = expr.xreplace({symbol: sympy.Integer(value)})
    return bool(result) if result in (sympy.true, sympy.false) else None


_NO_UPPER = 4096  # the largest size considered for a size with no upper bound


def _interval(expr, symbol, side: bool, env, hint: int | None) -> tuple[int, int] | None:
    """The smallest and largest size (among the candidates a test on constants needs) for which
    ``expr`` is ``side``."""
    bounds = env.var_to_range.get(symbol)
    if hint is None:  # an unbacked size: from its own lower bound (0 for a count)
        low = _as_int(bounds.lower, 0) if bounds is not None else 0
    else:  # torch assumes a dynamic size is at least 2 while tracing; a branch for size 1 still runs
        low = min(_as_int(bounds.lower, 1), 1) if bounds is not None else 1
    high = _as_int(bounds.upper, None) if bounds is not None else None
    high = max(4 * (hint or 0), _NO_UPPER) if high is None else high
    numbers = {abs(int(a)) for a in expr.atoms(sympy.Integer)} | {1, 2}
    candidates = {low, low + 1, high, high - 1} | ({hint} if hint is not None else set())
    for n in numbers:
        for m in numbers - {0}:  # `t % 4 != 0` has a 0 among its constants
            candidates.update({n // m - 1, n // m, n // m + 1, n * m - 1, n * m, n * m + 1})
    taking = [c for c in candidates if low <= c <= high and _value(expr, symbol, c) is side]
    if not taking:
        return None
    return min(taking), max(taking)


def _as_int(value, default):
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError, AttributeError):  # sympy's oo: no int
        return default


def _clamp(value: object, symbol, target: int, cut: bool) -> object:
    """``value`` with each dim (or a size) equal to ``symbol`` clamped towards ``target``: cut to at
    most ``target`` (``cut``) or zero-padded to at least ``target``."""
    if isinstance(value, torch.SymInt):
        if value.node.expr != symbol:
            return value
        return torch.sym_min(value, target) if cut else torch.sym_max(value, target)
    if not isinstance(value, torch.Tensor) or isinstance(value, torch.nn.Parameter):
        return value
    out = value
    for dim, size in enumerate(value.shape):
        if not (isinstance(size, torch.SymInt) and size.node.expr == symbol):
            continue
        if cut:
            out = out.narrow(dim, 0, torch.sym_min(size, target))
        else:
            extra = list(out.shape)
            extra[dim] = torch.sym_max(size, target) - size
            out = torch.cat([out, out.new_zeros(extra)], dim)
    if out is not value and out._base is not None:
        out = out.clone()  # graph ops refuse inputs that alias each other (a cut of x next to x)
    return out


def rebound(value: object, change, memo: dict | None = None) -> object:
    """A copy of ``value`` (a function: its closure, recursively; a tuple or list: its items; a
    converted loop's list: its rows) reading the tensors and sizes ``change`` gives for its own;
    ``value`` itself when nothing in it changes."""
    memo = {} if memo is None else memo
    key = id(value)
    if key in memo:
        return memo[key]
    memo[key] = value  # cycles: a function closing over itself
    if isinstance(value, types.FunctionType) and value.__closure__:
        cells = []
        for cell in value.__closure__:
            try:
                contents = cell.cell_contents
            except ValueError:  # not assigned yet
                cells.append(cell)
                continue
            new = rebound(contents, change, memo)
            cells.append(cell if new is contents else types.CellType(new))
        if any(a is not b for a, b in zip(cells, value.__closure__)):
            copy = types.FunctionType(
                value.__code__, value.__globals__, value.__name__, value.__defaults__, tuple(cells)
            )
            copy.__kwdefaults__ = value.__kwdefaults__
            copy.__dict__.update(value.__dict__)
            memo[key] = copy
    elif isinstance(value, (tuple, list)):
        items = [rebound(v, change, memo) for v in value]
        if any(a is not b for a, b in zip(items, value)):
            memo[key] = type(value)(items) if isinstance(value, list) or type(value) is tuple else value
    elif isinstance(value, StackedList):
        rows = change(value.stacked)
        if rows is not value.stacked:
            memo[key] = StackedList(value.prefix, rows, value.suffix)
    elif isinstance(value, (torch.Tensor, torch.SymInt)):
        memo[key] = change(value)
    return memo[key]
