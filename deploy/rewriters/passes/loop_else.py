"""LoopElseToFlag: the `else` clause of a loop runs when the loop ended without `break`; it becomes
an `if` on a flag the `break`s set, after the loop, so the loop itself has no `else` left for the
other passes to handle.

    for tok in drafted:                       _deploy_broke = False
        if rejected(tok):                     for tok in drafted:
            break                  ->             if rejected(tok):
    else:                                             _deploy_broke = True
        bonus()                                       break
                                              if not _deploy_broke:
                                                  bonus()

A loop without `break` always runs its `else`: the clause simply follows the loop.

A variable the body only assigns (before a `break`) and the `else` assigns too (``action =
rule.action; break`` ... ``else: action = self.default``) has a value after the loop on every path,
though not on the paths through the body that have not set it yet. In the body it becomes a result
slot (``_deploy_last_*``, None before the loop), copied to the variable after the loop: a cond in
the body then gives the slot a placeholder where it is still unset, as for a `return` in a loop.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names, read_names
from deploy.rewriters.passes.base import BLOCK_FIELDS, BREAK_SCOPES, Context, Pass, map_blocks, name


def _flag_breaks(block: list[ast.stmt], flag: str) -> tuple[list[ast.stmt], bool]:
    """``block`` with each `break` of this loop preceded by ``flag = True``; whether any was found."""
    out, found = [], False
    for stmt in block:
        if isinstance(stmt, ast.Break):
            out.append(ast.copy_location(ast.Assign([name(flag, True)], ast.Constant(True)), stmt))
            found = True
        elif not isinstance(stmt, BREAK_SCOPES):
            for field in BLOCK_FIELDS:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    new, hit = _flag_breaks(inner, flag)
                    setattr(stmt, field, new)
                    found = found or hit
            for handler in getattr(stmt, "handlers", []):
                handler.body, hit = _flag_breaks(handler.body, flag)
                found = found or hit
        out.append(stmt)
    return out, found


class LoopElseToFlag(Pass):
    """`for`/`while` ... `else:` -> a flag set by each `break` and `if not flag:` after the loop."""

    name = "loop-else-to-flag"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx))

    def rewrite(self, loop: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
        if not isinstance(loop, (ast.For, ast.While)) or not loop.orelse:
            return None
        orelse, loop.orelse = loop.orelse, []
        flag = ctx.fresh("broke")
        loop.body, found = _flag_breaks(loop.body, flag)
        if not found:
            return [loop, *orelse]
        before = ast.copy_location(ast.Assign([name(flag, True)], ast.Constant(False)), loop)
        after = ast.If(test=ast.UnaryOp(ast.Not(), name(flag)), body=orelse, orelse=[])
        after._deploy_what = "the loop's `else` (it ran to the end without `break`)"
        ast.copy_location(after, orelse[0])
        slots = _as_slots(loop, orelse, ctx)
        inits = [ast.Assign([name(slot, True)], ast.Constant(None)) for slot in slots.values()]
        copies = [ast.Assign([name(var, True)], name(slot)) for var, slot in slots.items()]
        out = [before, *inits, loop, *copies, after]
        for stmt in out:
            ast.fix_missing_locations(ast.copy_location(stmt, loop) if stmt in inits + copies else stmt)
        return out


def _as_slots(loop: ast.stmt, orelse: list[ast.stmt], ctx: Context) -> dict[str, str]:
    """The variables the body only assigns and the `else` assigns at its top level, each renamed in
    the body to a new result slot (module docstring); the loop's own variable stays."""
    target = assigned_names([loop.target]) if isinstance(loop, ast.For) else set()
    settled = {
        t.id for s in orelse if isinstance(s, ast.Assign) for t in s.targets if isinstance(t, ast.Name)
    }
    names = (assigned_names(loop.body) & settled) - read_names(loop.body) - target
    if isinstance(loop, ast.While):
        names -= read_names([loop.test])
    slots = {var: ctx.fresh("last") for var in sorted(names)}
    for node in ast.walk(ast.Module(loop.body, [])):
        if isinstance(node, ast.Name) and node.id in slots:
            node.id = slots[node.id]
    return slots
