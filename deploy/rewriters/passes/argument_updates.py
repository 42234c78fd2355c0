"""ArgumentUpdatesRebind: a call statement of a user helper that stores into some of its arguments
(``cast_ray(grid, visible, ...)`` doing ``visible[r, c] = 1.0``) rebinds the caller's names to the
values the helper leaves in them (argument_updates.py):

    cast_ray(grid, visible, r0, c0, 0, c)   ->   visible, = _deploy_rt.updated_arguments(
                                                     cast_ray, ('visible',), grid, visible, r0, c0, 0, c)

so a converted loop or branch around the call carries ``visible``. An assigned call keeps its value:
``cash = self.pay(cash, balances)`` -> ``cash, balances = _deploy_rt.returned_and_updated(self.pay,
('balances',), cash, balances)``. Only positional arguments that are
plain names, no keywords or ``*args``, each name passed once; the helper is converted for it now.

A call an `if` test always evaluates (``if not redistribute(comp, image, dead, j):``, not the right
operand of an `and`/`or`) is taken out of the test first, as an assigned call right before the `if`
whose value the test reads.
"""

from __future__ import annotations

import ast
import inspect

import torch

from deploy.rewriters.passes.base import Context, Pass, call, constant, map_blocks, name, rt


def _rebind(stmt: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
    assigned = isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
    if not ((isinstance(stmt, ast.Expr) or assigned) and isinstance(stmt.value, ast.Call)):
        return None
    node = stmt.value
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    from deploy.rewriters.argument_updates import stored_parameters, updating_variant
    from deploy.rewriters.convert import is_user_function

    target = ctx.resolve(node.func) if ctx.resolve is not None else None
    module = isinstance(target, type) and issubclass(target, torch.nn.Module)  # `self.sub(...)`: its forward
    if module:
        target = inspect.unwrap(getattr(target, "forward", None))
    if not is_user_function(target):
        return None
    names = list(target.__code__.co_varnames[: target.__code__.co_argcount])
    if module or isinstance(node.func, ast.Attribute):  # `self.helper(...)`: the first parameter is `self`
        names = names[1:]
    stored = stored_parameters(target)
    pairs = [
        (arg.id, names[i])
        for i, arg in enumerate(node.args)
        if i < len(names) and isinstance(arg, ast.Name) and names[i] in stored
    ]
    if assigned:  # `xs = self.fill(xs)`: the name takes the returned value, as Python assigns it
        bound = {n.id for n in ast.walk(stmt.targets[0]) if isinstance(n, ast.Name)}
        pairs = [(caller, param) for caller, param in pairs if caller not in bound]
    passed = [a.id for a in node.args if isinstance(a, ast.Name)]
    if not pairs or any(passed.count(caller) > 1 for caller, _ in pairs):
        return None
    params = tuple(p for _, p in pairs)
    try:  # ahead of tracing: no conversion runs while torch traces
        updating_variant(target, params, assigned)
    except Exception:  # a helper the converter cannot read or convert stays a plain call
        return None
    ctx.rewrote = True
    runner = rt("returned_and_updated" if assigned else "updated_arguments")
    updated = call(runner, node.func, ast.Tuple([constant(p) for p in params], ast.Load()), *node.args)
    rebound: list[ast.expr] = [name(caller, True) for caller, _ in pairs]
    targets = ast.Tuple([stmt.targets[0], *rebound] if assigned else rebound, ast.Store())
    return [ast.fix_missing_locations(ast.copy_location(ast.Assign([targets], updated), stmt))]


def _rebind_in_test(stmt: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
    """``if not helper(buf, j):`` with ``helper`` storing into ``buf`` -> the call assigned to a fresh
    name (rebinding ``buf``) before the `if`, whose test reads that name."""
    if not isinstance(stmt, ast.If):
        return None
    for node in _always_evaluated_calls(stmt.test):
        value = ctx.fresh("value")
        rebound = _rebind(ast.copy_location(ast.Assign([name(value, True)], node), stmt), ctx)
        if rebound is not None:
            stmt.test = _Replaced(node, name(value)).visit(stmt.test)
            return [*rebound, stmt]
    return None


def _always_evaluated_calls(test: ast.expr) -> list[ast.Call]:
    """The calls of ``test`` that every evaluation of it makes (not behind a short circuit)."""
    if isinstance(test, ast.Call):
        return [test]
    if isinstance(test, ast.UnaryOp):
        return _always_evaluated_calls(test.operand)
    if isinstance(test, ast.BoolOp):
        return _always_evaluated_calls(test.values[0])
    if isinstance(test, ast.Compare):
        return _always_evaluated_calls(test.left) + _always_evaluated_calls(test.comparators[0])
    if isinstance(test, ast.BinOp):
        return _always_evaluated_calls(test.left) + _always_evaluated_calls(test.right)
    return []


class _Replaced(ast.NodeTransformer):
    def __init__(self, old: ast.AST, new: ast.expr):
        self.old, self.new = old, new

    def visit(self, node: ast.AST) -> ast.AST:
        return ast.copy_location(self.new, node) if node is self.old else super().visit(node)


class ArgumentUpdatesRebind(Pass):
    """``helper(a, buf)`` storing into ``buf`` -> ``buf, = updated_arguments(...)`` (module docstring)."""

    name = "argument-updates-rebind"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: _rebind(stmt, ctx) or _rebind_in_test(stmt, ctx))
