"""ReturnToElse: a `return` inside an `if` branch makes the code after the `if` its else path,
and the returns become assignments to one result variable returned once at the end.

    if c:                      if c:
        return a                   _ret = a
    y = f(x)          ->       else:
    return y                       y = f(x)
                                   _ret = y
                               return _ret

After this pass no `return` is left inside an `if` at function level, so IfToCond can turn the
`if` into a cond whose output is the result. Returns inside loops are left alone (such a loop
stays plain Python and errors clearly if its condition is a tensor).
"""

from __future__ import annotations

import ast
import copy

from deploy.rewriters.analysis import has_node
from deploy.rewriters.passes.base import Context, Pass, name


def ends_with_return(stmts: list[ast.stmt]) -> bool:
    """Whether every path through ``stmts`` ends at a `return` or `raise`."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    return isinstance(last, ast.If) and ends_with_return(last.body) and ends_with_return(last.orelse)


def _has_branch_return(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.If) and has_node(
        stmt.body + stmt.orelse, (ast.Return,), stop=(ast.While, ast.For)
    )


def _fold_block(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Moves the statements after an `if` with an early return into the branch that falls through."""
    ends = [i for i, stmt in enumerate(stmts) if isinstance(stmt, (ast.Return, ast.Raise))]
    stmts = stmts[: ends[0] + 1] if ends else stmts  # what follows a `return` never runs
    for index, stmt in enumerate(stmts):
        if not _has_branch_return(stmt):
            continue
        rest = stmts[index + 1 :]
        then_returns, else_returns = ends_with_return(stmt.body), ends_with_return(stmt.orelse)
        if then_returns and not else_returns:
            stmt.orelse = stmt.orelse + rest
        elif else_returns and not then_returns:
            stmt.body = stmt.body + rest
        elif not (then_returns or else_returns):
            # a return nested deeper: both paths continue with the rest
            stmt.body = stmt.body + [_copy(s) for s in rest]
            stmt.orelse = stmt.orelse + rest
        stmt.body = _fold_block(stmt.body)
        stmt.orelse = _fold_block(stmt.orelse)
        return stmts[: index + 1]
    return stmts


def _copy(stmt: ast.stmt) -> ast.stmt:
    return copy.deepcopy(stmt)


class _ReturnToAssign(ast.NodeTransformer):
    def __init__(self, result: str):
        self.result = result

    def visit_Return(self, node: ast.Return) -> ast.stmt:
        value = node.value if node.value is not None else ast.Constant(None)
        return ast.copy_location(ast.Assign([name(self.result, True)], value), node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a nested function's returns are its own

    visit_Lambda = visit_AsyncFunctionDef = visit_While = visit_For = visit_FunctionDef


def returns_none_and_values(func: ast.FunctionDef) -> bool:
    nones = values = False
    for node in own_returns(func.body):
        is_none = node.value is None or _is_none(node.value)
        if isinstance(node.value, ast.Tuple) and any(_is_none(e) for e in node.value.elts):
            is_none = True  # `return None, 0` beside `return ratio, feet`: the caller tests `r is None`
        nones, values = nones or is_none, values or not is_none
    return nones and values


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def own_returns(stmts: list[ast.stmt]):
    for stmt in stmts:
        if isinstance(stmt, ast.Return):
            yield stmt
        elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.stmt):
                    yield from own_returns([child])


class ReturnToElse(Pass):
    """Early returns in `if` branches -> one result variable (see module docstring)."""

    name = "return-to-else"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        func.body = _fold_block(func.body)
        if not func.body or not _has_branch_return(func.body[-1]):
            return
        last = func.body[-1]
        # `return None` on one path and a value on another: the caller may test `is None`
        result = ctx.fresh("return_opt" if returns_none_and_values(func) else "return")
        rewriter = _ReturnToAssign(result)
        last.body = [rewriter.visit(s) for s in last.body]
        last.orelse = [rewriter.visit(s) for s in last.orelse]
        init = ast.copy_location(ast.Assign([name(result, True)], ast.Constant(None)), last)
        final = ast.copy_location(ast.Return(name(result)), last)
        func.body = func.body[:-1] + [init, last, final]
