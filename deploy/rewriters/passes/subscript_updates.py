"""SubscriptUpdatesToStores: ``x[i] += v`` (any augmented operator, ``x`` a plain name) becomes
``x[i] = x[i] + v``, a read and a store the later passes already convert.

    for m in range(n):                         for m in range(n):
        a = pairs[m, 0]                    ->      a = pairs[m, 0]
        games[a] += 1                              games[a] = games[a] + 1

Left as it is, the update mutates ``x`` in place where no pass sees an assignment to ``x``: a
converted loop would not carry ``x`` (graph-op bodies may not mutate their inputs), and a 0-d
tensor index (``a`` above) is read by Python's subscript, whose ``.item()`` torch.export cannot
specialise inside a cond or loop body. As a store, LoopIndexSubscripts turns it into
``x = setitem(x, i, getitem(x, i) + v)`` (``store`` outside control flow): index_select and
index_copy / index_put while exporting, the same in-place write eagerly.

Python evaluates the index once; an index that calls something is bound to a temporary first so
the read and the store use the same value (and the call runs once). An index holding a slice and
a call is left as it is (a slice cannot be bound to a name).
"""

from __future__ import annotations

import ast
import copy

from deploy.rewriters.passes.base import Context, Pass, map_blocks, name


def _update(stmt: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
    if not (
        isinstance(stmt, ast.AugAssign)
        and isinstance(stmt.target, ast.Subscript)
        and isinstance(stmt.target.value, ast.Name)
    ):
        return None
    target, index, bound = stmt.target, stmt.target.slice, []
    nodes = list(ast.walk(index))
    if any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)) for n in nodes):
        if any(isinstance(n, ast.Slice) for n in nodes):
            return None
        temp = ctx.fresh("index")
        bound.append(ast.copy_location(ast.Assign([name(temp, True)], index), stmt))
        index = name(temp)
    read = ast.Subscript(name(target.value.id), index, ast.Load())
    value = ast.BinOp(read, stmt.op, stmt.value)
    store = ast.Subscript(name(target.value.id), copy.deepcopy(index), ast.Store())
    update = ast.copy_location(ast.Assign([store], value), stmt)
    return [ast.fix_missing_locations(s) for s in (*bound, update)]


class SubscriptUpdatesToStores(Pass):
    """``x[i] op= v`` -> ``x[i] = x[i] op v`` (see module docstring)."""

    name = "subscript-updates-to-stores"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: _update(stmt, ctx))
