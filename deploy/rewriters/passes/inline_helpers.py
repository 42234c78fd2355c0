"""InlineListHelpers: a call statement of a helper that appends to a list the caller passed it, inside
the caller's loop or branch, is replaced by the helper's body:

    for i in range(1, n):                                 for i in range(1, n):
        if state == FIX:                                      if state == FIX:
            self.close_fixation(fixations, xy, start, i) ->       _deploy_end_2 = i
                                                                  if _deploy_end_2 - start >= self.min_fix_samples:
                                                                      _deploy_dur_ms_3 = ...
                                                                      fixations.append(...)

A converted loop carries a list through the appends it sees in its own body (a scan's stacked rows,
a RowList): hidden in a helper, the append would change a Python list while torch traces the body
once, and the list the loop returns would hold one traced row, whatever the data. Inlined, the list
is the caller's name and every pass sees the append. (ArgumentUpdatesRebind handles helpers that
store into a tensor argument.)

Only a plain function of the caller's own file (``helper(...)``) or a method of ``self``
(``self.helper(...)``), called as a statement in a block of a loop or an ``if`` (or of a statement
holding one) with positional arguments
(parameters left out take constant defaults); the list is a plain name; the helper has no
``return`` except a last bare one, no nested scopes, ``global``/``nonlocal``, ``yield`` or
``super``, and never rebinds the list parameter. Its locals and other parameters get fresh names
(each argument is evaluated once, in order, as the call did); the names it reads from its module
must not be names the caller binds. Statements keep the helper's line numbers, so each site names
the helper's line.
"""

from __future__ import annotations

import ast
import copy

from deploy.rewriters.analysis import assigned_names, has_node
from deploy.rewriters.passes.base import Context, Pass, map_blocks, name

_MUTATORS = {"append", "extend", "insert", "pop", "clear", "remove"}
_REFUSED = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.Global,
    ast.Nonlocal,
    ast.Yield,
    ast.YieldFrom,
    ast.Await,
)


def _mutated_lists(func: ast.FunctionDef, params: list[str]) -> set[str]:
    """Parameters the body mutates with a list method (``p.append(v)``) and never rebinds."""
    found = {
        node.func.value.id
        for node in ast.walk(func)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _MUTATORS
        and isinstance(node.func.value, ast.Name)
    }
    return (found & set(params)) - assigned_names(func.body)


def _inlinable(func: ast.FunctionDef) -> bool:
    body = func.body[:-1] if func.body and _bare_return(func.body[-1]) else func.body
    nodes = [n for stmt in body for n in ast.walk(stmt)]
    if any(isinstance(n, (*_REFUSED, ast.Return)) for n in nodes):
        return False
    args = func.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        return False
    return not any(isinstance(n, ast.Name) and n.id in ("super", "__class__") for n in nodes)


def _bare_return(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Return) and stmt.value is None


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id in self.names:
            node.id = self.names[node.id]
        return node


class _Inliner:
    def __init__(self, ctx: Context, caller_names: set[str]):
        self.ctx, self.caller_names = ctx, caller_names

    def inline(self, stmt: ast.stmt) -> list[ast.stmt] | None:
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
            return None
        node = stmt.value
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        method = isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
        if not (isinstance(node.func, ast.Name) or (method and node.func.value.id == "self")):
            return None
        target = self.ctx.resolve(node.func) if self.ctx.resolve is not None else None
        func = self._parsed(target)
        if func is None:
            return None
        params = [a.arg for a in func.args.args]
        if method:
            if not params:
                return None
            params = params[1:]
        bound = self._bound(func, params, node.args)
        if bound is None:
            return None
        lists = {p for p in _mutated_lists(func, params) if isinstance(bound.get(p), ast.Name)}
        if not lists:
            return None
        body = func.body[:-1] if _bare_return(func.body[-1]) else func.body
        free = {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name)} - set(params)
        free -= assigned_names(body) | {"self"}
        if free & self.caller_names:
            return None  # a module name the caller's own variable would hide
        renames = {p: bound[p].id for p in lists}
        if method:
            renames[func.args.args[0].arg] = "self"
        out: list[ast.stmt] = []
        for param in params:
            if param in lists:
                continue
            temp = self.ctx.fresh(param)
            renames[param] = temp
            out.append(ast.copy_location(ast.Assign([name(temp, True)], bound[param]), stmt))
        for local in sorted(assigned_names(body) - set(params)):
            renames[local] = self.ctx.fresh(local)
        out.extend(_Rename(renames).visit(copy.deepcopy(s)) for s in body)
        self.ctx.rewrote = True
        return [ast.fix_missing_locations(s) for s in out] or None

    def _parsed(self, target: object) -> ast.FunctionDef | None:
        from deploy.rewriters.convert import parsed_user_function

        func = parsed_user_function(target)
        if func is None or target.__code__.co_filename != self.ctx.file:
            return None
        return func if func.body and _inlinable(func) else None

    @staticmethod
    def _bound(func: ast.FunctionDef, params: list[str], args: list[ast.expr]) -> dict | None:
        """Each parameter's argument expression, or its constant default; None when one has none."""
        if len(args) > len(params):
            return None
        defaults = dict(zip(params[len(params) - len(func.args.defaults) :], func.args.defaults))
        bound = {}
        for i, param in enumerate(params):
            if i < len(args):
                bound[param] = args[i]
            elif isinstance(defaults.get(param), ast.Constant):
                bound[param] = copy.deepcopy(defaults[param])
            else:
                return None
        return bound


class InlineListHelpers(Pass):
    """``self.helper(xs, ...)`` appending to ``xs``, in a loop or branch -> its body (docstring)."""

    name = "inline-list-helpers"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        params = {a.arg for a in func.args.args + func.args.posonlyargs + func.args.kwonlyargs}
        inliner = _Inliner(ctx, assigned_names(func.body) | params)
        for stmt in func.body:  # calls in the blocks of the function's loops and branches, at any depth
            if has_node([stmt], (ast.For, ast.While, ast.If)):
                map_blocks(stmt, inliner.inline)
