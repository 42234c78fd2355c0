"""SearchIndexBounds: an index a `for` loop over a range searches for is told its range.

    target = temps.shape[0] - 1                   target = temps.shape[0] - 1
    for k in range(temps.shape[0]):               _deploy_bounds_1 = _deploy_rt.index_bounds(
        if t_in > temps[k]:              ->           target, temps.shape[0])
            target = k                            for k in range(temps.shape[0]):
            break                                     ...
                                                  target = _deploy_rt.index_within(target, _deploy_bounds_1)

Where the loop is a graph op, its index comes out as a 0-d tensor and the slices ``temps[:target]``,
``temps[target + 1 :]`` each get a size of their own; told that the index lies between its value
before the loop and the range's bounds (search_indices.py), the slices' sizes add up again.

Only for a variable the loop body sets to the loop's counter alone (``target = k``, in any branch,
not in a nested loop or function), that a statement earlier in the same block assigns, and a range
with no step whose bounds are plain expressions (names, attributes, subscripts, sizes, arithmetic):
they are evaluated once more, before the loop.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, call, copy_expr, name, rt
from deploy.rewriters.passes.continues import own_statements

_PLAIN = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.Slice)


def _plain(expr: ast.expr) -> bool:
    """No call but ``len(...)`` / ``.size(...)``, no lambda or comprehension: evaluating it twice is
    evaluating it once."""
    for node in ast.walk(expr):
        if isinstance(node, ast.Call):
            simple = isinstance(node.func, ast.Name) and node.func.id == "len"
            if not (simple or (isinstance(node.func, ast.Attribute) and node.func.attr == "size")):
                return False
        elif not isinstance(node, (*_PLAIN, ast.expr_context, ast.operator, ast.unaryop, ast.Call)):
            return False
    return True


def _range_args(loop: ast.stmt) -> list[ast.expr] | None:
    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and not loop.orelse):
        return None
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
        return None
    if it.keywords or not 1 <= len(it.args) <= 2 or not all(_plain(a) for a in it.args):
        return None
    return it.args


def _searched(loop: ast.For) -> list[str]:
    """The variables the body sets to the counter only (``target = k``), in order of appearance:
    every other store of them, a nested loop or function naming them, or a store of the counter
    itself rules them out."""
    counter = loop.target.id
    body = ast.Module(loop.body, [])
    stores = [n for n in ast.walk(body) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]
    if any(n.id == counter for n in stores):
        return []
    to_counter = [
        s
        for s in own_statements(loop.body)
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name)
        and isinstance(s.value, ast.Name)
        and s.value.id == counter
    ]
    allowed = {id(s.targets[0]) for s in to_counter}
    nested = {
        n.id
        for s in ast.walk(body)
        if isinstance(s, (ast.For, ast.While, ast.FunctionDef, ast.Lambda))
        for n in ast.walk(s)
        if isinstance(n, ast.Name)
    }
    found = list(dict.fromkeys(s.targets[0].id for s in to_counter))
    return [v for v in found if v not in nested and all(id(n) in allowed for n in stores if n.id == v)]


class SearchIndexBounds(Pass):
    """Indices a range loop searches for get their range (see module docstring)."""

    name = "search-index-bounds"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        for node in ast.walk(func):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                    setattr(node, field, self._block(block, ctx))

    def _block(self, block: list[ast.stmt], ctx: Context) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        assigned: set[str] = set()
        for stmt in block:
            args = _range_args(stmt)
            found = [v for v in _searched(stmt) if v in assigned] if args else []
            before, after = [], []
            for variable in found:
                bounds = ctx.fresh("bounds")
                taken = call(rt("index_bounds"), name(variable), *(copy_expr(a) for a in args))
                before.append(ast.Assign([name(bounds, True)], taken))
                within = call(rt("index_within"), name(variable), name(bounds))
                after.append(ast.Assign([name(variable, True)], within))
            for new in (*before, *after):
                ast.fix_missing_locations(ast.copy_location(new, stmt))
            out += [*before, stmt, *after]
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                assigned |= {t.id for t in targets if isinstance(t, ast.Name)}
        return out
