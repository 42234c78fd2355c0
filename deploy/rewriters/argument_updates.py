"""Helpers that change an argument in place, called as a statement or assigned:

    def cast_ray(grid, visible, r0, c0, r1, c1):
        while grid[r, c] < 0.5:
            visible[r, c] = 1.0                  # the caller's tensor, changed in place
            ...

    for c in range(w):                           # a graph loop over a dynamic size
        cast_ray(grid, visible, r0, c0, 0, c)    -> visible, = _deploy_rt.updated_arguments(
                                                        cast_ray, ('visible',), grid, visible, r0, c0, 0, c)

Inside a graph op a store is functional (graph-op bodies may not mutate their inputs), so the
change would not reach the caller's ``visible``. The call runs a variant of the helper that returns
the final values of the parameters it stores into (every ``return`` returns them; a returned value
is evaluated and dropped, as the statement dropped it), and the caller rebinds its names to them
(passes/argument_updates.py). Eagerly the stores are in place and the names are rebound to the
same objects: nothing changes. An assigned call keeps its value first:

    cash = self.pay(cash, balances)          -> cash, balances = _deploy_rt.returned_and_updated(
                                                    self.pay, ('balances',), cash, balances)
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
import types

import torch

_VARIANTS: dict[tuple[types.CodeType, tuple[str, ...], bool], types.FunctionType] = {}
_ATTRIBUTE = "_deploy_updating_variants"  # on the function: what dynamo reads (no code-object keys)


@functools.cache
def stored_parameters(fn: types.FunctionType) -> frozenset[str]:
    """The positional parameters of ``fn`` its own body stores into (``p[...] = v``, ``p[i][j] += v``)
    and never rebinds (``p = ...`` makes a local copy that the caller does not see)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return frozenset()
    func = tree.body[0] if tree.body else None
    if not isinstance(func, ast.FunctionDef):
        return frozenset()
    params = {a.arg for a in func.args.posonlyargs + func.args.args}
    stored, rebound, todo = set(), set(), list(func.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # a nested scope: its names are its own
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            rebound.add(node.id)
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name):
                stored.add(base.id)
        todo.extend(ast.iter_child_nodes(node))
    return frozenset((stored & params) - rebound)


def updating_variant(
    fn: types.FunctionType, params: tuple[str, ...], keep: bool = False
) -> types.FunctionType:
    """``fn`` converted, with every return (and its end) returning the tuple of ``params``' values,
    after the returned value when ``keep``."""
    key = (fn.__code__, params, keep)
    if key not in _VARIANTS:
        from deploy.rewriters import convert  # convert -> passes -> this module: import here

        func, ctx = convert._parse(fn)
        _ReturnParameters(params, keep).visit_body(func)
        _VARIANTS[key] = convert.convert_parsed(fn, func, ctx, force=True)
    variant = _VARIANTS[key]
    try:
        getattr(fn, _ATTRIBUTE, None) or setattr(fn, _ATTRIBUTE, {})
        getattr(fn, _ATTRIBUTE)[(params, keep)] = variant
    except (AttributeError, TypeError):
        pass
    return variant


def _run_variant(fn: object, params: tuple[str, ...], keep: bool, args: tuple) -> tuple:
    module = isinstance(fn, torch.nn.Module)  # a submodule called: its forward
    target = type(fn).forward if module else getattr(fn, "__func__", fn)
    # converted ahead of tracing by the pass; an attribute read, so dynamo can trace it
    variant = getattr(target, _ATTRIBUTE, {}).get((params, keep)) or updating_variant(target, params, keep)
    if module:
        return variant(fn, *args)
    # `fn.__self__` read directly: traced by dynamo, getattr(fn, "__self__", None) gives None
    return variant(fn.__self__, *args) if isinstance(fn, types.MethodType) else variant(*args)


def updated_arguments(fn: object, params: tuple[str, ...], *args: object) -> tuple:
    """``fn(*args)`` as a statement; the final values of its parameters ``params``, for the caller's
    names (see module docstring)."""
    return _run_variant(fn, params, False, args)


def returned_and_updated(fn: object, params: tuple[str, ...], *args: object) -> tuple:
    """``fn(*args)``'s value, then the final values of its parameters ``params`` (module docstring)."""
    return _run_variant(fn, params, True, args)


class _ReturnParameters(ast.NodeTransformer):
    def __init__(self, params: tuple[str, ...], keep: bool):
        self.params, self.keep = params, keep

    def values(self, value: ast.expr | None = None) -> ast.Tuple:
        names: list[ast.expr] = [ast.Name(p, ast.Load()) for p in self.params]
        return ast.Tuple([value or ast.Constant(None), *names] if self.keep else names, ast.Load())

    def visit_body(self, func: ast.FunctionDef) -> None:
        func.body = [out for stmt in func.body for out in _as_list(self.visit(stmt))]
        if not isinstance(func.body[-1], (ast.Return, ast.Raise)):  # the end of the body returns too
            func.body.append(ast.copy_location(ast.Return(self.values()), func.body[-1]))
        ast.fix_missing_locations(func)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        return node  # a nested function's returns are its own

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_Return(self, node: ast.Return) -> list[ast.stmt]:
        if self.keep:  # the value is evaluated before the parameters are read, as Python returns it
            return [ast.copy_location(ast.Return(self.values(node.value)), node)]
        out: list[ast.stmt] = []
        if node.value is not None and not isinstance(node.value, (ast.Constant, ast.Name)):
            out.append(ast.copy_location(ast.Expr(node.value), node))  # evaluated, as the call did
        out.append(ast.copy_location(ast.Return(self.values()), node))
        return out


def _as_list(node: object) -> list:
    return node if isinstance(node, list) else [node]
