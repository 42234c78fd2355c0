"""BreakContinueToFlags: `break` / `continue` in a `while` or `for ... in range(...)` loop become
flag variables, and the statements after them run under `if not flag:`.

    while c:                        _break = False
        y = f(y)                    while not _break and c:
        if g(y):          ->            y = f(y)
            break                       if g(y):
        y = h(y)                            _break = True
                                        if not _break:
                                            y = h(y)

The generated `if`s are then converted like any other (a tensor `g(y)` gives a tensor flag and a
cond), and the loop condition carries the flag, so the loop can become a while_loop.

A `for` over anything else (an ``nn.ModuleList``, a list) stays a Python loop; there the flags let
it idle once a tensor `break` may have happened:

    for block in self.blocks:       _break = False
        x = block(x)                for block in self.blocks:
        if x.mean() > 0:      ->        if _deploy_rt.python_true(_break):
            break                           break
                                        if not _break:
                                            x = block(x)
                                            if x.mean() > 0:
                                                _break = True

so each later block runs under a cond on the flag; on Python predicates it breaks as before.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import has_node
from deploy.rewriters.passes.base import Context, Pass, call, copy_expr, map_blocks, name, rt

_LOOPS = (ast.While, ast.For, ast.AsyncFor)


def is_range_loop(node: ast.AST) -> bool:
    """``for <name> in range(...)`` with positional bounds and no else clause."""
    return (
        isinstance(node, ast.For)
        and isinstance(node.target, ast.Name)
        and isinstance(node.iter, ast.Call)
        and isinstance(node.iter.func, ast.Name)
        and node.iter.func.id == "range"
        and 1 <= len(node.iter.args) <= 3
        and not node.iter.keywords
        and not node.orelse
    )


def _jumps(stmts: list[ast.stmt], kind: type) -> bool:
    return has_node(stmts, (kind,), stop=_LOOPS)


def _assign(identifier: str, value: bool, like: ast.AST) -> ast.stmt:
    return ast.copy_location(ast.Assign([name(identifier, True)], ast.Constant(value)), like)


def _not_flags(flags: list[str]) -> ast.expr:
    if len(flags) == 1:
        return ast.UnaryOp(ast.Not(), name(flags[0]))
    return ast.UnaryOp(ast.Not(), ast.BoolOp(ast.Or(), [name(f) for f in flags]))


def _guard(stmts: list[ast.stmt], break_flag: str, continue_flag: str) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Break):
            out.append(_assign(break_flag, True, stmt))
            return out
        if isinstance(stmt, ast.Continue):
            out.append(_assign(continue_flag, True, stmt))
            return out
        jumps = [f for f, k in ((break_flag, ast.Break), (continue_flag, ast.Continue)) if _jumps([stmt], k)]
        if not jumps or not isinstance(stmt, ast.If):
            out.append(stmt)
            continue
        stmt.body = _guard(stmt.body, break_flag, continue_flag)
        stmt.orelse = _guard(stmt.orelse, break_flag, continue_flag)
        out.append(stmt)
        rest = stmts[index + 1 :]
        if rest:
            guarded = ast.If(test=_not_flags(jumps), body=_guard(rest, break_flag, continue_flag), orelse=[])
            guarded._deploy_what = "skip the rest of the iteration after `break`/`continue`"
            guarded._deploy_guard_flags = jumps  # read by ForRangeToLoop (appends after a `break`)
            out.append(ast.copy_location(guarded, rest[0]))
        return out
    return out


class BreakContinueToFlags(Pass):
    """`break`/`continue` -> flags + guarded statements (see module docstring)."""

    name = "break-continue-to-flags"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        reads = [
            (n.id, getattr(n, "lineno", 0), id(n))
            for n in ast.walk(func)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        ]
        map_blocks(func, lambda stmt: self._rewrite(stmt, ctx, reads))

    def _rewrite(self, loop: ast.stmt, ctx: Context, reads: list = ()) -> list[ast.stmt] | None:
        if isinstance(loop, ast.For) and not loop.orelse and not is_range_loop(loop):
            # read on a later line, or by a statement after the loop on its lines (the `return side`
            # inside the loop that ReturnsInLoopsToBreaks moved after it: `_deploy_last = side`)
            end = getattr(loop, "end_lineno", None) or loop.lineno
            inside = {id(n) for n in ast.walk(loop)}
            read_after = {
                n for n, line, i in reads if line > end or (line >= loop.lineno and i not in inside)
            }
            return _python_loop(loop, ctx, read_after)
        if not (isinstance(loop, ast.While) and not loop.orelse) and not is_range_loop(loop):
            return None
        has_break, has_continue = _jumps(loop.body, ast.Break), _jumps(loop.body, ast.Continue)
        if not (has_break or has_continue):
            return None
        rotated = _leading_break(loop, ctx)
        if rotated is not None:
            return rotated
        break_flag, continue_flag = ctx.fresh("break"), ctx.fresh("continue")
        loop.body = _guard(loop.body, break_flag, continue_flag)
        if has_continue:
            loop.body.insert(0, _assign(continue_flag, False, loop.body[0]))
        if not has_break:
            return None
        if isinstance(loop, ast.While):
            loop.test = ast.copy_location(
                ast.BoolOp(ast.And(), [_not_flags([break_flag]), loop.test]), loop.test
            )
        else:
            loop._break_flag = break_flag
        return [_assign(break_flag, False, loop), loop]


def _leading_break(loop: ast.For | ast.While, ctx: Context) -> list[ast.stmt] | None:
    """``if T: break`` as the first statement (and the only jump) of a loop: the test moves into the
    loop's condition instead of guarding the rest of the body with a cond (whose outputs may differ
    in size: ``tokens = torch.cat([tokens, tok])`` after ``if finished.all(): break``).

        while c:                          while c and not T:
            if T: break        ->             rest
            rest

        for t in range(n):                _break = T
            if T: break        ->         for t in range(n):      (runs while not _break)
            rest                              rest
                                              _break = T

    For a range loop T must not read the loop counter; it is evaluated once before the loop and
    after each iteration (the loop operator checks the flag before each iteration)."""
    first, rest = loop.body[0], loop.body[1:]
    if not (
        isinstance(first, ast.If)
        and not first.orelse
        and len(first.body) == 1
        and isinstance(first.body[0], ast.Break)
        and rest
        and not _jumps(rest, ast.Break)
        and not _jumps(rest, ast.Continue)
        and not has_node([first.test], (ast.NamedExpr, ast.Lambda))
    ):
        return None
    test = first.test
    if isinstance(loop, ast.While):
        loop.test = ast.copy_location(
            ast.BoolOp(ast.And(), [loop.test, ast.UnaryOp(ast.Not(), test)]), loop.test
        )
        loop.body = rest
        return [loop]
    if loop.target.id in {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}:
        return None
    if all(isinstance(a, ast.Constant) for a in loop.iter.args):
        return None  # `for _ in range(1)` (continues.py) and other loops that stay Python
    flag = ctx.fresh("break")
    assign = [ast.copy_location(ast.Assign([name(flag, True)], test), first) for _ in range(2)]
    assign[1] = ast.copy_location(ast.Assign([name(flag, True)], copy_expr(test)), rest[-1])
    loop.body = [*rest, assign[1]]
    loop._break_flag = flag
    return [assign[0], loop]


def _python_loop(loop: ast.For, ctx: Context, read_after: set[str] = frozenset()) -> list[ast.stmt] | None:
    """A loop that stays Python (see module docstring): guarded body, real `break` on a Python flag.
    A loop target read after the loop (``for ts in self.timescales: ... break`` then ``ts``) is
    assigned inside the guard, so it keeps the item of the iteration that broke: the loop goes on
    over the other items (idling), which would otherwise leave the last one in it."""
    has_break, has_continue = _jumps(loop.body, ast.Break), _jumps(loop.body, ast.Continue)
    if not (has_break or has_continue):
        return None
    break_flag, continue_flag = ctx.fresh("break"), ctx.fresh("continue")
    # an iteration's own bookkeeping (passes/continues.py: the value it appends and whether it
    # did, set up first and appended last) stays outside the guard: a skipped iteration appends
    # nothing by its flag, and no append is left inside a cond
    first = next((i for i, s in enumerate(loop.body) if not getattr(s, "_deploy_unguarded", False)), 0)
    own = [s for s in loop.body[first:] if getattr(s, "_deploy_unguarded", False)]
    before, rest = loop.body[:first], [s for s in loop.body[first:] if s not in own]
    body = _guard(rest, break_flag, continue_flag)
    if has_continue:
        body.insert(0, _assign(continue_flag, False, body[0]))
    if not has_break:
        loop.body = before + body + own
        return None
    targets = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    untouched = not ({n.id for s in before + own for n in ast.walk(s) if isinstance(n, ast.Name)} & targets)
    if targets & read_after and untouched:
        item = ctx.fresh("item")
        assign = ast.copy_location(ast.Assign([loop.target], name(item)), loop.target)
        body.insert(0, ast.fix_missing_locations(assign))
        loop.target = ast.fix_missing_locations(ast.copy_location(name(item, True), loop.target))
    stop = ast.If(test=call(rt("python_true"), name(break_flag)), body=[ast.Break()], orelse=[])
    guarded = ast.If(test=_not_flags([break_flag]), body=body, orelse=[])
    guarded._deploy_what = "skip the iterations after `break`"
    guarded._deploy_site_arg = stop.test  # IfToCond adds the guard's site id (eager coverage)
    head = [ast.copy_location(stop, rest[0]), ast.copy_location(guarded, rest[0])]
    loop.body = before + head + own
    return [_assign(break_flag, False, loop), loop]
