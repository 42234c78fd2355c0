"""Guards torch.export cannot prove over a dynamic range, checked by trying every size in it.

``x[: n - n // 2]`` over a dynamic ``n`` in [128, 2048] makes torch record ``n - n // 2 >= 0``.
Its range analysis treats ``n`` and ``n // 2`` as unrelated intervals, cannot prove the guard and
reports "Constraints violated" although every n in the range satisfies it. Here such an export is
repeated with guards turned into run-time assertions, and each assertion on the input sizes alone
is evaluated at every size of its dim's range: when all hold everywhere (they only restate what the
range already guarantees), the program is kept and the assertions are dropped from it; when any
fails at some size, it is a real specialisation and the original error stands.

One kind of failing guard is kept as well: a size that is not 0 or 1 (``w != 1``, ``w >= 2``, where
``w = n - n // 2`` is 1 at ``n = 2``), which torch records for a size it assumes is not 0 or 1 (a
contiguity or broadcasting check on a tensor of ``w`` rows, in a loop body that may not even run at
that size) and which fails only where the size is 0 or 1. The graph is then the size-oblivious one
torch builds for sizes it knows nothing about; verification at the minimum, middle and maximum sizes
compares it with eager.

Each guard is evaluated as Python integer arithmetic compiled from its expression (sympy's own
substitution took minutes for a block loop's guards over a range of 8000 sizes); sympy decides
only for a guard with a function the compiler does not know.
"""

from __future__ import annotations

from typing import Any

import sympy
import torch

MAX_SIZES = 20_000  # sizes tried per dim


def export_with_range_checked_guards(module, inputs, dynamic_shapes) -> tuple[Any, int, int] | None:
    """The program, how many guards hold at every size and how many fail only where a size is 1;
    None when a guard fails otherwise or cannot be checked."""
    from torch.export._trace import _export

    program = _export(
        module,
        inputs,
        None,
        dynamic_shapes,
        strict=False,
        pre_dispatch=True,
        prefer_deferred_runtime_asserts_over_guards=True,
    )
    checked = size_one = 0
    for module_ in program.graph_module.modules():
        graph = getattr(module_, "graph", None)
        for node in list(graph.nodes) if graph is not None else []:
            if node.op != "call_function" or node.target is not torch.ops.aten._assert_scalar.default:
                continue
            expr = _expr(node.args[0])
            if expr is None or not expr.free_symbols:
                continue
            if any(str(s).startswith("u") for s in expr.free_symbols):
                continue  # a check on an unbacked size (a .item()): a run-time assertion as usual
            if _holds_everywhere(expr, program.range_constraints):
                checked += 1
            elif _holds_everywhere(expr, program.range_constraints, size_one=True):
                size_one += 1
                graph.erase_node(node)  # the program runs at those sizes too (``ep.module()``)
                module_.recompile()
            else:
                return None
    return program, checked, size_one


def _expr(arg) -> sympy.Basic | None:
    value = arg.meta.get("val") if hasattr(arg, "meta") else None
    node = getattr(value, "node", None)
    return getattr(node, "expr", None)


def _holds_everywhere(expr: sympy.Basic, ranges: dict, size_one: bool = False) -> bool:
    """``expr`` holds at every size of its one symbol's range (``size_one``: or fails only where the
    size a "not 0 or 1" guard is about is 0 or 1)."""
    symbols = sorted(expr.free_symbols, key=str)
    if len(symbols) != 1:
        return False
    symbol = symbols[0]
    bounds = ranges.get(symbol)
    if bounds is None:
        return False
    try:
        low, high = int(bounds.lower), int(bounds.upper)
    except (TypeError, ValueError, OverflowError):
        return False
    if high - low > MAX_SIZES:
        return False
    size = _size_not_one(expr) if size_one else None
    fast = _holds_fast(expr, symbol, size, low, high)
    if fast is not None:
        return fast
    for n in range(low, high + 1):
        value = expr.xreplace({symbol: sympy.Integer(n)})
        if value is sympy.true:
            continue
        if (
            value is not sympy.false
            or size is None
            or size.xreplace({symbol: sympy.Integer(n)}) not in (0, 1)
        ):
            return False
    return True


def _holds_fast(expr: sympy.Basic, symbol, size, low: int, high: int) -> bool | None:
    """``_holds_everywhere`` with the guard compiled to Python integer arithmetic (sympy's own
    substitution takes milliseconds a size: minutes for a guard over thousands of sizes); None when
    the guard holds a function this does not know (then sympy decides)."""
    guard = _compiled(expr, symbol)
    width = _compiled(size, symbol) if size is not None else None
    if guard is None or (size is not None and width is None):
        return None
    try:
        for n in range(low, high + 1):
            if guard(n) is True:
                continue
            if width is None or width(n) not in (0, 1):
                return False
    except (ArithmeticError, TypeError, ValueError):
        return None
    return True


def _compiled(expr: sympy.Basic, symbol):
    """``expr`` as a function of the symbol's integer value, in Python numbers; None if it holds an
    operation not listed here."""
    from fractions import Fraction

    from torch.utils._sympy import functions as fn

    if expr == symbol:
        return lambda n: n
    if expr is sympy.true or expr is sympy.false:
        value = expr is sympy.true
        return lambda n: value
    if isinstance(expr, sympy.Integer):
        value = int(expr)
        return lambda n: value
    if isinstance(expr, sympy.Rational):
        value = Fraction(int(expr.p), int(expr.q))
        return lambda n: value
    parts = [_compiled(arg, symbol) for arg in expr.args]
    if not expr.args or any(p is None for p in parts):
        return None
    binary = {
        fn.FloorDiv: lambda a, b: a // b,
        fn.CleanDiv: lambda a, b: a // b,
        fn.CeilDiv: lambda a, b: -(-a // b),
        fn.Mod: lambda a, b: a % b,
        fn.PythonMod: lambda a, b: a % b,
        sympy.Eq: lambda a, b: a == b,
        sympy.Ne: lambda a, b: a != b,
        sympy.Lt: lambda a, b: a < b,
        sympy.Le: lambda a, b: a <= b,
        sympy.Gt: lambda a, b: a > b,
        sympy.Ge: lambda a, b: a >= b,
    }
    many = {
        sympy.Add: sum,
        sympy.Mul: _product,
        fn.Max: max,
        fn.Min: min,
        sympy.And: all,
        sympy.Or: any,
    }
    for kind, op in binary.items():
        if type(expr) is kind and len(parts) == 2:
            a, b = parts
            return lambda n: op(a(n), b(n))
    for kind, op in many.items():
        if type(expr) is kind:
            return lambda n: op([p(n) for p in parts])
    if type(expr) is sympy.Not:
        (a,) = parts
        return lambda n: not a(n)
    if type(expr) is sympy.Pow and isinstance(expr.args[1], sympy.Integer) and int(expr.args[1]) >= 0:
        a, b = parts
        return lambda n: a(n) ** b(n)
    return None


def _product(values: list):
    result = 1
    for value in values:
        result = result * value
    return result


def _size_not_one(expr: sympy.Basic) -> sympy.Basic | None:
    """The size ``w`` of a guard ``w != 1``, ``w >= 2`` or ``w > 1`` (torch writes ``n - n // 2 >= 2``
    as ``n // 2 + 2 <= n``, ``w != 1`` as ``n != n // 2 + 1``); None for any other guard."""
    if isinstance(expr, sympy.Ne):  # `n != n // 2 + 1`, `Min(100, n // 2) != 2` (of `max_lag - 1`
        return expr.args[0] - expr.args[1] + 1  # rows): torch's "not 0 or 1" checks, 1 where they fail
    if isinstance(expr, (sympy.LessThan, sympy.StrictLessThan)):
        low, high = expr.lhs, expr.rhs
    elif isinstance(expr, (sympy.GreaterThan, sympy.StrictGreaterThan)):
        low, high = expr.rhs, expr.lhs
    else:
        return None
    strict = isinstance(expr, (sympy.StrictLessThan, sympy.StrictGreaterThan))
    if sympy.Integer(1 if strict else 2) not in expr.atoms(sympy.Integer):
        return None
    return high - low + (1 if strict else 2)  # the guard is `this >= 2`
