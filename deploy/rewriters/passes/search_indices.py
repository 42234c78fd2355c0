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
    """The variables the body sets to the counter only (``target = k``), in order of appearance."""
    counter = loop.target.id
    found: list[str] = []
    for stmt in own_statements(loop.body):
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Name)
            and stmt.value.id == counter
            and stmt.targets[0].id not in found
        ):
            found.append(stmt.targets[0].id)
    simple = {id(s.targets[0]) for s in own_statements(loop.body) if isinstance(s, ast.Assign)}
    stores = [
        n
        for n in ast.walk(ast.Module(loop.body, []))
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    ]
    nested = [n for s in ast.walk(ast.Module(loop.body, [])) if isinstance(s, (ast.For, ast.While, ast.FunctionDef, ast.Lambda)) for n in ast.walk(s)]  # fmt: skip
    if any(isinstance(n, ast.Name) and n.id == counter and not isinstance(n.ctx, ast.Load) for n in stores):
        return []  # the counter itself is reassigned
    inner = {id(n) for n in nested}
    return [
        v
        for v in found
        if all(id(n) in simple and id(n) not in inner for n in stores if n.id == v)
        and not any(isinstance(n, ast.Name) and n.id == v for n in nested)
    ]


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
