"""ConditionalAppends: ``if c: xs.append(v)`` outside any loop becomes
``xs = _deploy_rt.append_if(xs, c, lambda: v)``.

An append among other statements of a branch moves after the `if` (``_hoisted``): the branch
assigns the value to a variable, and the list gets it once the `if` is done, on the branch's test
(taken before the branch runs, which may change what it reads: ``pending[pos] = False``):

    if pending[pos]:                      _deploy_test_1 = pending[pos]
        pending[pos] = False              if _deploy_test_1:
        stops.append(pos)         ->          pending[pos] = False
        clock = clock + dwell                 _deploy_appended_2 = pos
                                              clock = clock + dwell
                                          stops = _deploy_rt.append_if(stops, _deploy_test_1,
                                                                       lambda: _deploy_appended_2)

An append on both branches becomes one plain append after the `if`.

An append is a mutation a cond branch cannot make. On a Python test the runtime appends (or not)
as Python would; on a tensor test it keeps the values in a stacked list and drops the new row when
the test is false (a data-dependent number of rows, like the filtered appends of a converted loop).
Inside loops the pass does nothing (there OneAppendPerIteration collects appends per iteration),
except in loops over constant ranges, which stay Python.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names, has_node
from deploy.rewriters.passes.base import Context, Pass, call, name, rt, thunk
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.continues import append_of, append_target


class ConditionalAppends(Pass):
    """A lone conditional append outside loops -> append_if (see module docstring)."""

    name = "conditional-appends"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        self.ctx = ctx
        # names bound in the function (arguments too): a range bound naming one may be dynamic
        self.local = assigned_names(func.body) | {
            a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)
        }
        func.body = self._block(func.body)

    def _block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out = []
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                stmt = _merged(stmt)
                target = append_target(stmt.body[0]) if len(stmt.body) == 1 and not stmt.orelse else None
                if target is not None:
                    value = thunk(stmt.body[0].value.args[0])
                    replaced = ast.Assign(
                        [name(target, True)], call(rt("append_if"), name(target), stmt.test, value)
                    )
                    out.append(ast.fix_missing_locations(ast.copy_location(replaced, stmt)))
                    continue
                stmt.body, stmt.orelse = self._block(stmt.body), self._block(stmt.orelse)
                before, after = _lifted(stmt, self.ctx)
                hoisted = _hoisted(stmt, self.ctx)
                if hoisted is not None or after:
                    out.extend([*before, *(hoisted or [stmt]), *after])
                    continue
            elif isinstance(stmt, (ast.With, ast.Try)) or stays_python(stmt, self.local):
                stmt.body = self._block(stmt.body)
            out.append(stmt)
        return out


def stays_python(stmt: ast.stmt, local: set[str]) -> bool:
    """``for s in range(SHELVES):`` with constant bounds (literals, module constants) and no jumps:
    a loop that stays Python, whose conditional appends are lone ones like those outside loops."""
    return (
        is_range_loop(stmt)
        and all(
            isinstance(a, ast.Constant) or (isinstance(a, ast.Name) and a.id not in local)
            for a in stmt.iter.args
        )
        and not has_node(stmt.body, (ast.Break, ast.Continue), stop=(ast.For, ast.While))
    )


def _merged(stmt: ast.If) -> ast.If:
    """``if a: if b: xs.append(v)`` (no `else` at any level) as ``if a and b: xs.append(v)``, a lone
    conditional append (``b`` is also computed where ``a`` is false, when ``a`` is a tensor)."""
    tests, node = [], stmt
    while not node.orelse and len(node.body) == 1 and isinstance(node.body[0], ast.If):
        tests.append(node.test)
        node = node.body[0]
    if not tests or node.orelse or len(node.body) != 1 or append_target(node.body[0]) is None:
        return stmt
    test = ast.copy_location(ast.BoolOp(ast.And(), [*tests, node.test]), stmt.test)
    return ast.copy_location(ast.If(test=test, body=node.body, orelse=[]), stmt)


def _hoisted(stmt: ast.If, ctx: Context) -> list[ast.stmt] | None:
    """The `if` with each list it appends to once (directly in a branch, nowhere else read) appended
    after it (see module docstring); None when no list qualifies or the `if` may leave early."""
    if has_node([stmt], (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom)):
        return None
    lists = sorted(
        {append_target(s) for s in (*stmt.body, *stmt.orelse)} - {None},
    )
    plans = []
    for target in lists:
        sides = [[s for s in block if append_target(s) == target] for block in (stmt.body, stmt.orelse)]
        uses = sum(isinstance(n, ast.Name) and n.id == target for n in ast.walk(stmt))
        if any(len(found) > 1 for found in sides) or uses != sum(map(len, sides)):
            continue  # appended twice on a path, or read in the `if` besides its appends
        plans.append((target, bool(sides[0]), bool(sides[1])))
    if not plans:
        return None
    test = None
    if any(not (then and other) for _, then, other in plans):
        test = ctx.fresh("test")
        taken = [
            ast.copy_location(ast.Assign([name(test, True)], stmt.test), stmt),
            ast.copy_location(ast.Assign([name(test, True)], call(rt("kept_test"), name(test))), stmt),
        ]
        stmt._deploy_what = ctx.source_of(stmt.test)
        stmt.test = name(test)
    after = []
    for target, then, other in plans:
        temp = ctx.fresh("appended")
        stmt.body, stmt.orelse = (_assigning(block, target, temp) for block in (stmt.body, stmt.orelse))
        if then and other:
            after.append(append_of(target, temp))
            continue
        cond = name(test) if then else ast.UnaryOp(ast.Not(), name(test))
        after.append(
            ast.Assign([name(target, True)], call(rt("append_if"), name(target), cond, thunk(name(temp))))
        )
    out = (taken if test else []) + [stmt] + [ast.copy_location(a, stmt) for a in after]
    return [ast.fix_missing_locations(s) for s in out]


def _append_if_target(stmt: ast.stmt) -> str | None:
    """``xs = _deploy_rt.append_if(xs, test, thunk)`` (an inner `if` this pass rewrote): ``xs``."""
    if not (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call)
        and ast.dump(stmt.value.func) == ast.dump(rt("append_if"))
        and len(stmt.value.args) == 3
        and isinstance(stmt.value.args[0], ast.Name)
        and stmt.value.args[0].id == stmt.targets[0].id
    ):
        return None
    return stmt.targets[0].id


def _lifted(stmt: ast.If, ctx: Context) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """An inner conditional append in a branch (``if a: ... if b: xs.append(v)``, a helper's body
    inlined there) moves after this `if` too: the branch keeps its test in a flag that is False on
    the other paths, and the list gets the value after the `if` where the flag holds. Returns the
    flags' initial assignments and the appends; nothing when the `if` may leave early or reads the
    list besides those appends."""
    if has_node([stmt], (ast.Return, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom)):
        return [], []
    before, after = [], []
    for field in ("body", "orelse"):
        block = []
        for s in getattr(stmt, field):
            target = _append_if_target(s)
            uses = sum(isinstance(n, ast.Name) and n.id == target for n in ast.walk(stmt))
            if target is None or uses != 2:
                block.append(s)
                continue
            flag, value = ctx.fresh("kept"), s.value.args[2]
            before.append(ast.copy_location(ast.Assign([name(flag, True)], ast.Constant(False)), stmt))
            block.append(ast.copy_location(ast.Assign([name(flag, True)], s.value.args[1]), s))
            if not (isinstance(value.body, ast.Name) and value.body.id.startswith("_deploy_appended")):
                # the value may read what only this branch assigns: computed here, where it holds
                temp = ctx.fresh("appended")
                inner = ast.If(name(flag), [ast.Assign([name(temp, True)], value.body)], [])
                inner._deploy_what = ctx.source_of(s.value.args[1])
                block.append(ast.copy_location(inner, s))
                value = thunk(name(temp))
            appended = call(rt("append_if"), name(target), name(flag), value)
            after.append(ast.copy_location(ast.Assign([name(target, True)], appended), stmt))
        setattr(stmt, field, block)
    return [ast.fix_missing_locations(s) for s in before], [ast.fix_missing_locations(s) for s in after]


def _assigning(block: list[ast.stmt], target: str, temp: str) -> list[ast.stmt]:
    return [
        ast.copy_location(ast.Assign([name(temp, True)], s.value.args[0]), s)
        if append_target(s) == target
        else s
        for s in block
    ]
