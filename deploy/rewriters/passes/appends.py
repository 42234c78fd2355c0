"""ConditionalAppends: ``if c: xs.append(v)`` outside any loop becomes
``xs = _deploy_rt.append_if(xs, c, lambda: v)``.

An append is a mutation a cond branch cannot make. On a Python test the runtime appends (or not)
as Python would; on a tensor test it keeps the values in a stacked list and drops the new row when
the test is false (a data-dependent number of rows, like the filtered appends of a converted loop).
Inside loops the pass does nothing (there OneAppendPerIteration collects appends per iteration),
except in loops over constant ranges, which stay Python.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names, has_node
from deploy.rewriters.passes.base import Context, Pass, call, name, rt
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.continues import append_target


class ConditionalAppends(Pass):
    """A lone conditional append outside loops -> append_if (see module docstring)."""

    name = "conditional-appends"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        # names bound in the function (arguments too): a range bound naming one may be dynamic
        self.local = assigned_names(func.body) | {
            a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)
        }
        func.body = self._block(func.body)

    def _block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out = []
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                stmt = _merged(stmt)
                target = append_target(stmt.body[0]) if len(stmt.body) == 1 and not stmt.orelse else None
                if target is not None:
                    value = ast.Lambda(
                        ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                        stmt.body[0].value.args[0],
                    )
                    replaced = ast.Assign(
                        [name(target, True)], call(rt("append_if"), name(target), stmt.test, value)
                    )
                    out.append(ast.fix_missing_locations(ast.copy_location(replaced, stmt)))
                    continue
                stmt.body, stmt.orelse = self._block(stmt.body), self._block(stmt.orelse)
            elif isinstance(stmt, (ast.With, ast.Try)) or stays_python(stmt, self.local):
                stmt.body = self._block(stmt.body)
            out.append(stmt)
        return out


def stays_python(stmt: ast.stmt, local: set[str]) -> bool:
    """``for s in range(SHELVES):`` with constant bounds (literals, module constants) and no jumps:
    a loop that stays Python, whose conditional appends are lone ones like those outside loops."""
    return (
        is_range_loop(stmt)
        and all(
            isinstance(a, ast.Constant) or (isinstance(a, ast.Name) and a.id not in local)
            for a in stmt.iter.args
        )
        and not has_node(stmt.body, (ast.Break, ast.Continue), stop=(ast.For, ast.While))
    )


def _merged(stmt: ast.If) -> ast.If:
    """``if a: if b: xs.append(v)`` (no `else` at any level) as ``if a and b: xs.append(v)``, a lone
    conditional append (``b`` is also computed where ``a`` is false, when ``a`` is a tensor)."""
    tests, node = [], stmt
    while not node.orelse and len(node.body) == 1 and isinstance(node.body[0], ast.If):
        tests.append(node.test)
        node = node.body[0]
    if not tests or node.orelse or len(node.body) != 1 or append_target(node.body[0]) is None:
        return stmt
    test = ast.copy_location(ast.BoolOp(ast.And(), [*tests, node.test]), stmt.test)
    return ast.copy_location(ast.If(test=test, body=node.body, orelse=[]), stmt)
