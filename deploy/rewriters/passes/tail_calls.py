"""TailCallsToLoop: a function that returns a call of itself becomes a loop over its parameters.

    def agm(self, a, b, depth=0):                   def agm(self, a, b, depth=0):
        if (a - b).abs().max() < tol or depth >= 25:    while True:
            return 0.5 * (a + b)               ->           if (a - b).abs().max() < tol or depth >= 25:
        return self.agm(0.5 * (a + b),                          return 0.5 * (a + b)
                        torch.sqrt(a * b), depth + 1)        a, b, depth = 0.5 * (a + b), torch.sqrt(a * b), depth + 1

Converted as it is, each level of such a recursion is a cond nested in the one before (the depth a
tensor test cannot bound while tracing), 25 levels deep: traced once per level and per enclosing
level, an export that does not end. As a loop it is one while_loop, the recursion's test its exit.

Only tail calls: every call of the function by its own name (``self.name(...)`` in a method, ``name(...)``
in a plain function) is a whole ``return`` statement, outside any loop, ``try`` or ``with``. Each
becomes the parameters bound to the call's arguments at once (a parameter the call leaves out takes its
default, a constant) and ``continue`` unless the ``return`` ends the body anyway. A body that can end
without a ``return`` gets ``return None``, the value Python gives it.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass
from deploy.rewriters.passes.returns import ends_with_return

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_OPAQUE = (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.Match)


class TailCallsToLoop(Pass):
    """``return self.f(...)`` inside ``f`` -> ``while True:`` over the parameters."""

    name = "tail-calls-to-loop"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        params = _parameters(func)
        if params is None:
            return
        calls = [node for node in ast.walk(func) if _calls_itself(node, func)]
        tails = _tail_returns(func.body, func)
        if not calls or tails is None or len(tails) != len(calls):
            return  # no recursion, or one that is not a tail call (or sits in a loop)
        bound = {id(ret): _bound(ret.value, params, func) for ret in tails}
        if any(b is None for b in bound.values()) or any(
            isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(func)
        ):
            return
        docstring = func.body[:1] if _is_docstring(func.body[0]) else []
        statements = func.body[len(docstring) :]
        falls = not ends_with_return(statements)  # before: a tail call's binding ends no path
        body = _replaced(statements, bound, at_end=not falls)  # `return None` follows otherwise
        if falls:
            body.append(ast.copy_location(ast.Return(None), statements[-1]))
        loop = ast.copy_location(ast.While(ast.Constant(True), body, []), statements[0])
        loop._deploy_what = f"the recursion {ctx.source_of(tails[0].value)} as a loop"
        func.body = docstring + [loop]
        ast.fix_missing_locations(func)


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _parameters(func: ast.FunctionDef) -> list[tuple[str, ast.expr | None]] | None:
    """The parameters a call binds (after ``self`` for a method), each with its constant default;
    None when the signature has ``*args``/``**kwargs`` or a default that is not a constant."""
    args = func.args
    if args.vararg or args.kwarg:
        return None
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    params = list(zip((a.arg for a in positional), defaults)) + [
        (a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults)
    ]
    if any(d is not None and not isinstance(d, ast.Constant) for _, d in params):
        return None
    return params[1:] if _is_method(func) else params


def _is_method(func: ast.FunctionDef) -> bool:
    positional = func.args.posonlyargs + func.args.args
    return bool(positional) and positional[0].arg == "self"


def _calls_itself(node: ast.AST, func: ast.FunctionDef) -> bool:
    if not isinstance(node, ast.Call):
        return False
    target = node.func
    if _is_method(func):
        return (
            isinstance(target, ast.Attribute)
            and target.attr == func.name
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
        )
    return isinstance(target, ast.Name) and target.id == func.name


def _tail_returns(block: list[ast.stmt], func: ast.FunctionDef) -> list[ast.Return] | None:
    """The ``return f(...)`` statements of ``block`` outside loops and nested scopes; None when a
    call of ``f`` sits in a loop, ``try`` or ``with`` (its ``continue`` would not reach our loop)."""
    found: list[ast.Return] = []
    for stmt in block:
        if isinstance(stmt, ast.Return) and stmt.value is not None and _calls_itself(stmt.value, func):
            found.append(stmt)
        elif isinstance(stmt, _OPAQUE):
            if any(_calls_itself(n, func) for n in ast.walk(stmt)):
                return None
        elif isinstance(stmt, ast.If):
            for inner in (stmt.body, stmt.orelse):
                more = _tail_returns(inner, func)
                if more is None:
                    return None
                found.extend(more)
        elif isinstance(stmt, _SCOPES):
            continue
    return found


def _bound(call: ast.Call, params: list[tuple[str, ast.expr | None]], func: ast.FunctionDef):
    """``(names, values)`` the call binds to every parameter; None for ``*``/``**`` arguments or a
    call that does not fit the signature."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    if len(call.args) > len(params):
        return None
    values: dict[str, ast.expr] = {name: arg for (name, _), arg in zip(params, call.args)}
    for keyword in call.keywords:
        if keyword.arg in values or keyword.arg not in dict(params):
            return None
        values[keyword.arg] = keyword.value
    for name, default in params:
        if name not in values:
            if default is None:
                return None
            values[name] = ast.Constant(default.value)
    names = [name for name, _ in params]
    return names, [values[n] for n in names]


def _replaced(block: list[ast.stmt], bound: dict, at_end: bool) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for i, stmt in enumerate(block):
        last = at_end and i == len(block) - 1
        if id(stmt) in bound:
            names, values = bound[id(stmt)]
            store = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store())
            out.append(ast.copy_location(ast.Assign([store], ast.Tuple(values, ast.Load())), stmt))
            if not last:
                out.append(ast.copy_location(ast.Continue(), stmt))
            continue
        if isinstance(stmt, ast.If):
            stmt.body = _replaced(stmt.body, bound, last)
            stmt.orelse = _replaced(stmt.orelse, bound, last)
        out.append(stmt)
    return out
