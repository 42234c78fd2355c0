"""ReturnsInLoopsToFlags: a `return` inside a loop (the early-exit network pattern) becomes a result
variable plus a "returned" flag; every statement that could run after it is guarded by
`if not returned:`, and the function returns the result once at the end.

    for layer in self.layers:             _returned = False
        x = layer(x)                      _return = None
        if x.abs().mean() < 0.3:    ->    for layer in self.layers:
            return x                          if not _returned:
    return x * 10                                 x = layer(x)
                                                  if x.abs().mean() < 0.3:
                                                      _return = x
                                                      _returned = True
                                          if not _returned:
                                              _return = x * 10
                                              _returned = True
                                          return _return

On Python predicates this runs exactly like the original (the loop just idles after the return);
on a tensor predicate the flag becomes a tensor and the guards become conds. Functions without a
`return` inside a loop are left to ReturnToElse.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import has_node
from deploy.rewriters.passes.base import Context, Pass, name
from deploy.rewriters.passes.returns import returns_none_and_values

_LOOPS = (ast.For, ast.While)


def _returns(stmts: list[ast.stmt]) -> bool:
    return has_node(stmts, (ast.Return,))


def _assign(target: str, value: ast.expr, like: ast.AST) -> ast.stmt:
    return ast.copy_location(ast.Assign([name(target, True)], value), like)


def _unless(flag: str, stmts: list[ast.stmt], why: str) -> ast.If:
    guard = ast.copy_location(
        ast.If(test=ast.UnaryOp(ast.Not(), name(flag)), body=stmts, orelse=[]), stmts[0]
    )
    guard._deploy_what = why
    guard._deploy_dead_else = True  # on the returned path nothing but the result is read again
    return guard


def _guard(stmts: list[ast.stmt], flag: str, result: str) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Return):
            value = stmt.value if stmt.value is not None else ast.Constant(None)
            out += [_assign(result, value, stmt), _assign(flag, ast.Constant(True), stmt)]
            return out
        if not _returns([stmt]):
            out.append(stmt)
            continue
        if isinstance(stmt, ast.If):
            stmt.body = _guard(stmt.body, flag, result)
            stmt.orelse = _guard(stmt.orelse, flag, result)
        elif isinstance(stmt, _LOOPS):
            stmt.body = [
                _unless(flag, _guard(stmt.body, flag, result), "skip the iteration after an early `return`")
            ]
            if isinstance(stmt, ast.While):
                stmt.test = ast.copy_location(
                    ast.BoolOp(ast.And(), [ast.UnaryOp(ast.Not(), name(flag)), stmt.test]), stmt.test
                )
        elif isinstance(stmt, (ast.With, ast.Try)):
            stmt.body = _guard(stmt.body, flag, result)
        out.append(stmt)
        rest = stmts[index + 1 :]
        if rest:
            out.append(_unless(flag, _guard(rest, flag, result), "skip the rest after an early `return`"))
        return out
    return out


class ReturnsInLoopsToFlags(Pass):
    """`return` inside loops -> result variable + returned flag (see module docstring)."""

    name = "returns-in-loops-to-flags"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        loops = [n for n in ast.walk(func) if isinstance(n, _LOOPS)]
        if not any(_returns(loop.body) for loop in loops):
            return
        # a result None on some paths (`return None`, or falling off the end) carries a presence
        # flag through the conds (optional_returns.py); else the caller's `is not None` is always true
        optional = returns_none_and_values(func) or not isinstance(func.body[-1], ast.Return)
        flag, result = ctx.fresh("returned"), ctx.fresh("return_opt" if optional else "return")
        first = func.body[0]
        body = _guard(func.body, flag, result)
        init = [_assign(flag, ast.Constant(False), first), _assign(result, ast.Constant(None), first)]
        func.body = init + body + [ast.copy_location(ast.Return(name(result)), func.body[-1])]
