"""EntryMutationsToStores: in a loop body, appends to and pops of a list that is an entry of another
list (queues per stage) become stores of a new entry, which the loop can carry:

    for week in range(demand.shape[0]):              for week in range(demand.shape[0]):
        for k, stage in enumerate(self.stages):          for k, stage in enumerate(self.stages):
            arrived = pipeline[k].pop(0)        ->           _deploy_popped_1 = pipeline[k][0]
                                                             pipeline[k] = pipeline[k][1:]
                                                             arrived = _deploy_popped_1
            ...                                          ...
            pipeline[k - 1].append(shipped)              pipeline[k - 1] = pipeline[k - 1] + [shipped]

A store into an entry's entry, ``groups[-1][1] = i`` (an event's end moved on), is taken apart the
same way: ``_deploy_entry_1 = groups[-1]``, ``_deploy_entry_1[1] = i``, ``groups[-1] = _deploy_entry_1``.
Eagerly the first store writes the inner list (or row) in place and the second stores it back
unchanged; in a graph op each is functional and the outer store is the assignment the loop carries.

A graph loop carries a list of lists entry by entry (list_state.py); a mutation in place is seen by
no pass, but a store ``pipeline[k] = ...`` is (``hs[layer] = h`` already converts). Eagerly the result
is the same list values; only an inner list also held under another name would differ, and
verification against the unchanged model catches that.

Only ``xs[i][j] = v`` (one target, ``i`` and ``j`` free of calls and slices), ``xs[i].append(v)`` as a statement, and ``xs[i].pop()`` / ``.pop(-1)`` / ``.pop(<int>)`` as the
one pop of a simple statement (not in a part Python may skip, ``xs`` named nowhere else in it), with
``xs`` a plain name and ``i`` free of calls, are rewritten; anything else stays as it was.
"""

from __future__ import annotations

import ast
import copy

from deploy.rewriters.passes.base import Context, Pass, map_blocks, name
from deploy.rewriters.passes.list_pops import named_once, only_pop, replaced

_LOOPS = (ast.For, ast.While)


def _entry(node: ast.AST) -> ast.Subscript | None:
    """``xs[i]`` with ``xs`` a plain name and ``i`` an expression without calls (safe to read twice)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
        return None
    if any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Slice)) for n in ast.walk(node.slice)):
        return None
    return node


def _load(entry: ast.Subscript) -> ast.Subscript:
    return ast.Subscript(name(entry.value.id), copy.deepcopy(entry.slice), ast.Load())


def _store(entry: ast.Subscript, value: ast.expr, like: ast.stmt) -> ast.stmt:
    target = ast.Subscript(name(entry.value.id), copy.deepcopy(entry.slice), ast.Store())
    return ast.fix_missing_locations(ast.copy_location(ast.Assign([target], value), like))


def _append(stmt: ast.stmt) -> list[ast.stmt] | None:
    value = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "append"
        and len(value.args) == 1
        and not value.keywords
    ):
        return None
    entry = _entry(value.func.value)
    if entry is None:
        return None
    grown = ast.BinOp(_load(entry), ast.Add(), ast.List([value.args[0]], ast.Load()))
    return [_store(entry, grown, stmt)]


def _nested_store(stmt: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
    """``xs[i][j] = v`` -> ``e = xs[i]; e[j] = v; xs[i] = e``."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return None
    target = stmt.targets[0]
    if not isinstance(target, ast.Subscript) or _entry(target.value) is None:
        return None
    if any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Slice)) for n in ast.walk(target.slice)):
        return None
    entry, temp = target.value, ctx.fresh("entry")
    inner = ast.Subscript(name(temp), copy.deepcopy(target.slice), ast.Store())
    taken = ast.Assign([name(temp, True)], _load(entry))
    out = [ast.fix_missing_locations(ast.copy_location(taken, stmt))]
    out.append(ast.fix_missing_locations(ast.copy_location(ast.Assign([inner], stmt.value), stmt)))
    out.append(_store(entry, name(temp), stmt))
    return out


def _position(pop: ast.Call) -> int | None:
    """The popped position: -1 for ``pop()`` / ``pop(-1)``, a literal non-negative int, else None."""
    if not pop.args:
        return -1
    arg = pop.args[0]
    if (
        isinstance(arg, ast.UnaryOp)
        and isinstance(arg.op, ast.USub)
        and isinstance(arg.operand, ast.Constant)
    ):
        return -1 if arg.operand.value == 1 and type(arg.operand.value) is int else None
    if isinstance(arg, ast.Constant) and type(arg.value) is int and arg.value >= 0:
        return arg.value
    return None


def _the_pop(stmt: ast.stmt) -> tuple[ast.Call, ast.Subscript] | None:
    """The one pop of an entry a simple statement makes, when it can run ahead of the statement."""
    pop = only_pop(stmt)
    if pop is None or len(pop.args) > 1 or pop.keywords:
        return None
    entry = _entry(pop.func.value)
    if entry is None or _position(pop) is None or not named_once(stmt, entry.value.id):
        return None
    return pop, entry


def _pop(stmt: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
    found = _the_pop(stmt)
    if found is None:
        return None
    pop, entry = found
    at = _position(pop)
    temp = ctx.fresh("popped")
    taken = ast.Subscript(_load(entry), ast.Constant(at), ast.Load())
    out = [ast.fix_missing_locations(ast.copy_location(ast.Assign([name(temp, True)], taken), stmt))]
    if at == -1:
        rest: ast.expr = ast.Subscript(_load(entry), ast.Slice(None, ast.Constant(-1)), ast.Load())
    else:
        before = ast.Subscript(_load(entry), ast.Slice(None, ast.Constant(at)), ast.Load())
        after = ast.Subscript(_load(entry), ast.Slice(ast.Constant(at + 1), None), ast.Load())
        rest = ast.BinOp(before, ast.Add(), after)
    out.append(_store(entry, rest, stmt))
    if not (isinstance(stmt, ast.Expr) and stmt.value is pop):  # `q[k].pop(0)` alone: the value is dropped
        out.append(ast.fix_missing_locations(replaced(stmt, pop, name(temp))))
    return out


def _rewrite_loop_bodies(node: ast.AST, ctx: Context) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(child, _LOOPS):
            map_blocks(child, lambda stmt: _append(stmt) or _pop(stmt, ctx) or _nested_store(stmt, ctx))
        else:
            _rewrite_loop_bodies(child, ctx)


class EntryMutationsToStores(Pass):
    """``xs[i].append(v)`` / ``xs[i].pop(j)`` in loop bodies -> stores of ``xs[i]`` (module docstring)."""

    name = "entry-mutations-to-stores"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        _rewrite_loop_bodies(func, ctx)
