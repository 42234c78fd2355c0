"""Guards torch.export cannot prove over a dynamic range, checked by trying every size in it.

``x[: n - n // 2]`` over a dynamic ``n`` in [128, 2048] makes torch record ``n - n // 2 >= 0``.
Its range analysis treats ``n`` and ``n // 2`` as unrelated intervals, cannot prove the guard and
reports "Constraints violated" although every n in the range satisfies it. Here such an export is
repeated with guards turned into run-time assertions, and each assertion on the input sizes alone
is evaluated at every size of its dim's range: when all hold everywhere (they only restate what the
range already guarantees), the program is kept and the assertions are dropped from it; when any
fails at some size, it is a real specialisation and the original error stands.
"""

from __future__ import annotations

from typing import Any

import sympy
import torch

MAX_SIZES = 20_000  # sizes tried per dim


def export_with_range_checked_guards(module, inputs, dynamic_shapes) -> tuple[Any, int] | None:
    """The program and how many guards were checked; None when a guard fails or cannot be checked."""
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
    checked = 0
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
            if not _holds_everywhere(expr, program.range_constraints):
                return None
            checked += 1
    return program, checked


def _expr(arg) -> sympy.Basic | None:
    value = arg.meta.get("val") if hasattr(arg, "meta") else None
    node = getattr(value, "node", None)
    return getattr(node, "expr", None)


def _holds_everywhere(expr: sympy.Basic, ranges: dict) -> bool:
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
    for n in range(low, high + 1):
        value = expr.xreplace({symbol: sympy.Integer(n)})
        if value not in (sympy.true, sympy.false) or not bool(value):
            return False
    return True
