"""AppendsAfterBreak: appends that a `break` before them guards, in `for ... in range()` loops,
become values the loop's body hands out (ForRangeToLoop then passes them as the loop's lists):

    for t in range(n):                  _deploy_skipped_2 = True     (only with a later `break`)
        if stop(t):                     for t in range(n):
            break                           ...
        outs.append(f(t))      ->           _deploy_appended_3 = Undefined; _deploy_skipped_2 = True
        if full(t):                         if not _break:
            break                               _deploy_appended_3 = f(t); _deploy_skipped_2 = False
                                                if full(t): _break = True

The loop operator keeps one row per iteration the skip flag (else the break flag) is false on.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names
from deploy.rewriters.passes.base import Context, Pass, call, constant, map_blocks, name, rt
from deploy.rewriters.passes.breaks import is_range_loop


class AppendsAfterBreak(Pass):
    """Right after BreakContinueToFlags: appends a `break` guards in range loops become assignments
    (see _appends_after_break); the loop remembers them as ``_deploy_guarded_appends`` (and the
    flag that says an iteration appended nothing, when that is not the break flag, as
    ``_deploy_skip_flag``)."""

    name = "appends-after-break"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self._rewrite(stmt, ctx) if is_range_loop(stmt) else None)

    def _rewrite(self, loop: ast.For, ctx: Context) -> list[ast.stmt] | None:
        found, skip = _appends_after_break(loop, ctx)
        if not found:
            return None
        loop._deploy_guarded_appends = found
        if skip is None:
            return None
        loop._deploy_skip_flag = skip  # carried: the loop operator counts the rows it is false on
        return [ast.copy_location(ast.Assign([name(skip, True)], constant(True)), loop), loop]


def _appends_after_break(loop: ast.For, ctx: Context) -> tuple[list[tuple[str, str]], str | None]:
    """``if done: break`` *before* ``outs.append(y)``: the break pass left the append inside the
    guard ``if not _break: ...``. Each such append becomes ``_deploy_appended_N = y`` there, with
    ``_deploy_appended_N = Undefined`` before the guard (an iteration that breaks appends nothing);
    returns the (temp, list name) pairs and the skip flag (below). Only when every append of the
    list is such a one.

    An iteration appended nothing exactly when its break flag ends up set, unless a `break` can
    follow the append (``xs.append(y); if full: break``): that iteration appended and stops. Then
    a flag of its own, ``_deploy_skipped_N``, set before the guard and cleared next to the appends,
    says which iterations appended; the loop has one row count, so that takes every such append
    in the same guard (an append in another one runs on another condition and is left as it is)."""
    flag = getattr(loop, "_break_flag", None)
    if not flag:
        return [], None
    candidates = []  # (top-level position, guard, statement, list name, a `break` may follow it)
    for position, guard, outer_later in _guards(loop.body, flag):
        for index, stmt in enumerate(guard.body):
            acc = added_to(stmt)
            if acc is None or is_prepend(stmt) or acc in [c[3] for c in candidates]:
                continue
            if _loads(loop.body, acc) != 1 or acc in assigned_names(loop.body):
                continue  # read (or assigned) anywhere but by this append
            late = flag in assigned_names(guard.body[index + 1 :] + outer_later)
            candidates.append((position, guard, stmt, acc, late))
    late_guards = {id(c[1]) for c in candidates if c[4]}
    if len(late_guards) > 1 or (late_guards and {id(c[1]) for c in candidates} != late_guards):
        candidates = [c for c in candidates if not c[4]]
    skip = ctx.fresh("skipped") if any(c[4] for c in candidates) else None
    found = []
    for position, guard, stmt, acc, _ in candidates:
        temp = ctx.fresh("appended")
        index = guard.body.index(stmt)
        guard.body[index] = ast.copy_location(ast.Assign([name(temp, True)], appended_value(stmt)), stmt)
        if skip is not None and len(found) == len(candidates) - 1:  # after the last append
            guard.body.insert(
                index + 1, ast.copy_location(ast.Assign([name(skip, True)], constant(False)), stmt)
            )
        found.append((temp, acc, position))
    initial = [(temp, call(rt("Undefined"), constant("append")), position) for temp, _, position in found]
    if skip is not None:
        initial.append((skip, constant(True), found[0][2]))
    for temp, value, position in reversed(initial):
        loop.body.insert(
            position, ast.copy_location(ast.Assign([name(temp, True)], value), loop.body[position])
        )
    for temp, _, _ in initial:  # read at the end of the body, so the guard's cond returns it
        loop.body.append(ast.copy_location(ast.Expr(name(temp)), loop.body[-1]))
    return [(temp, acc) for temp, acc, _ in found], skip


def _guards(body: list[ast.stmt], flag: str, position=None, outer_later=()):
    """(top-level position, guard, the statements after it in enclosing guards) for each
    ``if not _break:`` guard in the body, nested ones too (a second `break` after the first)."""
    for index, stmt in enumerate(body):
        if getattr(stmt, "_deploy_guard_flags", None) != [flag]:
            continue
        at = index if position is None else position
        yield at, stmt, list(outer_later)
        for inner_index, inner in enumerate(stmt.body):
            if getattr(inner, "_deploy_guard_flags", None) == [flag]:
                rest = stmt.body[inner_index + 1 :] + list(outer_later)
                yield from _guards([inner], flag, at, rest)


def _loads(body: list[ast.stmt], identifier: str) -> int:
    return sum(
        1
        for node in ast.walk(ast.Module(body=list(body), type_ignores=[]))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id == identifier
    )


def added_to(stmt: ast.stmt) -> str | None:
    """The list a statement ``name.append(v)`` or ``name.insert(0, v)`` adds one value to."""
    if not (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Attribute)
        and isinstance(stmt.value.func.value, ast.Name)
        and not stmt.value.keywords
    ):
        return None
    call_ = stmt.value
    if call_.func.attr == "append" and len(call_.args) == 1:
        return call_.func.value.id
    if is_prepend(stmt):
        return call_.func.value.id
    return None


def is_prepend(stmt: ast.stmt) -> bool:
    """``name.insert(0, v)``: the value goes to the front (a backward loop collecting outputs)."""
    call_ = stmt.value
    return (
        call_.func.attr == "insert"
        and len(call_.args) == 2
        and isinstance(call_.args[0], ast.Constant)
        and call_.args[0].value == 0
    )


def appended_value(stmt: ast.stmt) -> ast.expr:
    """The value ``name.append(v)`` / ``name.insert(0, v)`` adds."""
    return stmt.value.args[-1]
