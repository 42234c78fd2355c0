"""IfToCond and TernaryToCond: an `if` statement / `a if c else b` becomes a runtime call that
runs plain Python on a Python predicate and emits torch.cond on a tensor or symbolic one.

    if c:                          def _then(y, z):            def _else(y, z):
        y = f(x)                       y = f(x)                    z = x
    else:                  ->          return (y,)                 return (y,)
        z = x                      (y,) = _deploy_rt.if_stmt(c, _then, _else, (y, z), ("y", "z"), SITE)

The branch functions take every variable either branch assigns (its value before the `if`, or an
Undefined marker) and return those read after the `if` (liveness), so a variable assigned in one
branch keeps its earlier value on the other path. A branch that cannot live inside a graph op
(return/break left in it, raise, list mutation, ...) still runs as plain Python for Python
predicates; on a tensor predicate the site raises NotDeployableError saying what to change.
"""

from __future__ import annotations

import ast

from deploy.rewriters import sites
from deploy.rewriters.analysis import assigned_names, has_node, read_names
from deploy.rewriters.passes.base import (
    RUNTIME,
    Context,
    Pass,
    call,
    constant,
    function_def,
    map_blocks,
    name,
    names_tuple,
    rt,
    safe_loads,
    state_names,
    thunk,
)

_MUTATORS = {"append", "extend", "insert", "remove", "clear", "update"}


def unsupported_reason(stmts: list[ast.stmt], carried: frozenset[str] = frozenset()) -> str:
    """Why these statements cannot be the body of a graph op ('' when they can). ``carried``: names
    the branches of an `if` take as arguments, whose containers each branch gets a copy of
    (operators._fresh_args), so mutating them (``grades.append(g)``) changes nothing outside."""
    loops = (ast.While, ast.For)
    if has_node(stmts, (ast.Return,)):
        return "a `return` inside a loop in this branch; compute the value and return it after the `if`"
    if has_node(stmts, (ast.Break, ast.Continue), stop=loops):
        return "`break`/`continue` of a loop that stays plain Python (only `while` and `for ... in range()` convert)"
    if has_node(stmts, (ast.Raise, ast.Assert)):
        return "a branch raises; raise errors outside tensor-valued conditions (or drop the check for export)"
    if has_node(stmts, (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal, ast.Delete)):
        return "yield/global/nonlocal/del inside a branch"
    local = _fresh_containers(stmts) | carried
    for node in ast.walk(ast.Module(body=list(stmts), type_ignores=[])):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
            and not (isinstance(node.func.value, ast.Name) and node.func.value.id in local)
        ):
            hint = (
                "; to collect one value per step, loop with `for _ in range(max_steps)` and `break` (converted "
                "with a buffer) or write into a preallocated tensor"
                if node.func.attr == "append"
                else ""
            )
            return f"the body mutates an object in place (`.{node.func.attr}(...)`); assign a new value instead{hint}"

        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) for t in targets):
                return "a branch assigns an attribute (`obj.x = ...`); use a local variable instead"
    return ""


_CONTAINERS = (ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set, ast.SetComp)


def _fresh_containers(stmts: list[ast.stmt]) -> set[str]:
    """Names that only ever hold a container these statements create (``cur = [x]``): mutating
    them changes nothing outside, so tracing the statements once is faithful."""
    fresh, other = set(), set()
    for node in ast.walk(ast.Module(body=list(stmts), type_ignores=[])):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            value = getattr(node, "value", None)
            creates = _creates(value)
            if _regrown(value, targets) or _loop_outputs(value):
                continue  # `xs = _deploy_rt.append_if(xs, ...)`: the same list, one row more or not
            if _torch_call(value) and all(isinstance(t, ast.Name) for t in targets):
                continue  # `times = torch.stack(times)`: a new tensor, not a container from outside
            pairs = _unpacked(targets, value)
            if pairs is not None:  # `times, peaks = [], []`
                for target, item in pairs:
                    (fresh if _creates(item) else other).add(target.id)
                continue
            for target in targets:
                for leaf in ast.walk(target) if target is not None else ():
                    if isinstance(leaf, ast.Name):
                        (fresh if creates and target is leaf else other).add(leaf.id)
    return fresh - other


def _creates(value: ast.expr | None) -> bool:
    return isinstance(value, _CONTAINERS) or (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in {"list", "dict", "set"}
    )


def _torch_call(value: ast.expr | None) -> bool:
    """``torch.stack(xs)``, ``torch.nn.functional.pad(...)``: a call of a function under ``torch``."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    while isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id == "torch" and value.func is not func


def _unpacked(targets: list, value: ast.expr | None) -> list | None:
    """(name, value) pairs of ``a, b = x, y`` (one tuple of plain names, one of as many values)."""
    if len(targets) != 1 or not isinstance(targets[0], ast.Tuple) or not isinstance(value, ast.Tuple):
        return None
    names, values = targets[0].elts, value.elts
    if len(names) != len(values) or not all(isinstance(n, ast.Name) for n in names):
        return None
    return list(zip(names, values))


def _loop_outputs(value: ast.expr | None) -> bool:
    """``(h,), (xs, masks) = _deploy_rt.for_range(...)``: a converted loop hands back the lists it
    was given, grown (a list these statements created stays theirs)."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == RUNTIME
        and value.func.attr in ("for_range", "while_stmt")
    )


def _regrown(value: ast.expr | None, targets: list) -> bool:
    """``xs = _deploy_rt.append_if(xs, ...)`` / ``compact(xs, ...)`` / ``setitem(xs, i, v)``: the
    list the passes grow or update."""
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id == RUNTIME
        and value.func.attr in ("append_if", "compact", "setitem")
        and len(targets) == 1
        and isinstance(targets[0], ast.Name)
        and bool(value.args)
        and isinstance(value.args[0], ast.Name)
        and value.args[0].id == targets[0].id
    )


def _set_first(stmts: list[ast.stmt], identifier: str) -> bool:
    """Whether these statements assign ``identifier`` at their top level before anything reads it
    (the branch functions other rewrites define take their values as parameters)."""
    for stmt in stmts:
        if isinstance(stmt, ast.FunctionDef) and identifier in {a.arg for a in stmt.args.args}:
            continue
        if isinstance(stmt, ast.Assign) and identifier not in read_names([stmt.value]):
            if identifier in assigned_names([stmt]) and all(
                isinstance(t, (ast.Name, ast.Tuple)) for t in stmt.targets
            ):
                return True
            continue
        if identifier in read_names([stmt]) or identifier in assigned_names([stmt]):
            return False
    return False


def _unread_before_set(stmts: list[ast.stmt], identifier: str) -> bool:
    """Whether a branch never sees ``identifier``'s value from before the `if`: it sets it first, or
    never reads it (``_, t_back = leg(cp, home)`` in one branch only, the value not read after it: a
    read of a name a loop body has no value for yet is an empty closure cell, which dynamo refuses)."""
    return _set_first(stmts, identifier) or identifier not in read_names(stmts)


class IfToCond(Pass):
    """`if` statements -> runtime if_stmt with branch functions (see module docstring)."""

    name = "if-to-cond"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx) if isinstance(stmt, ast.If) else None)

    def rewrite(self, node: ast.If, ctx: Context) -> list[ast.stmt]:
        params = state_names(assigned_names(node.body + node.orelse))
        reason = unsupported_reason(node.body + node.orelse, frozenset(params))
        site = ctx.new_site("if", node, ctx.describe(node, node.test), reason)
        sites.get_site(site).in_loop = getattr(node, "_deploy_in_loop", False)
        if hasattr(node, "_deploy_site_arg"):  # a Python loop's break guard (see breaks.py)
            node._deploy_site_arg.args.append(constant(site))
        branches = node.body + node.orelse
        if has_node(branches, (ast.Return,)) or has_node(
            branches, (ast.Break, ast.Continue), stop=(ast.While, ast.For)
        ):
            # must stay a real `if`: guard its test so a tensor predicate fails clearly
            node.test = ast.copy_location(call(rt("python_predicate"), node.test, constant(site)), node.test)
            return [node]
        outputs = [p for p in params if p in getattr(node, "_live_after", set(params))]
        then_name, else_name = ctx.fresh("then"), ctx.fresh("else")
        returned = [ast.copy_location(ast.Return(names_tuple(outputs)), node)]
        then_def = function_def(then_name, params, node.body + returned, node)
        else_def = function_def(
            else_name, params, node.orelse + returned, node.orelse[0] if node.orelse else node
        )
        defined = getattr(node, "_defined", set())
        overwritten = [
            p
            for p in params
            if (node.orelse and _set_first(node.body, p) and _set_first(node.orelse, p))
            or (
                p not in defined
                and p not in outputs
                and all(_unread_before_set(b, p) for b in (node.body, node.orelse))
            )
        ]
        loads, current = safe_loads([p for p in params if p not in overwritten], defined, ctx, node)
        # a variable both branches assign before reading it: its value before the `if` is never
        # seen, so it is not read (inside a loop's body it may be a local with no value yet)
        given = iter(current.elts)
        current.elts = [
            call(rt("Undefined"), constant(p)) if p in overwritten else next(given) for p in params
        ]
        names = ast.Tuple([constant(p) for p in outputs], ast.Load())
        dispatch = call(
            rt("if_stmt"), node.test, name(then_name), name(else_name), current, names, constant(site)
        )
        if getattr(node, "_deploy_dead_else", False):  # `if not returned:` (loop_returns.py)
            dispatch.args.append(constant(True))
        if outputs:
            result: ast.stmt = ast.Assign([names_tuple(outputs, store=True)], dispatch)
        else:
            result = ast.Expr(dispatch)
        return [then_def, else_def, *loads, ast.copy_location(result, node)]


class _TernaryRewriter(ast.NodeTransformer):
    def __init__(self, ctx: Context):
        self.ctx = ctx

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        site = self.ctx.new_site("ifexp", node, self.ctx.describe(node, node.test))
        # `median(live) if live.numel() > 0 else one`: a side that may fail where a size test is
        # false runs only where eager runs it, also in loop bodies (operators.if_expr)
        sites.get_site(site).on_size = any(_size_read(n) for n in ast.walk(node.test))
        dispatch = call(rt("if_expr"), node.test, thunk(node.body), thunk(node.orelse), constant(site))
        return ast.copy_location(dispatch, node)


def _size_read(node: ast.AST) -> bool:
    """``x.numel()``, ``x.size(...)``, ``x.shape`` or ``len(x)``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "shape"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in ("numel", "size")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


class TernaryToCond(Pass):
    """`a if c else b` -> runtime if_expr with two thunks."""

    name = "ternary-to-cond"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        rewriter = _TernaryRewriter(ctx)
        func.body = [rewriter.visit(stmt) for stmt in func.body]
