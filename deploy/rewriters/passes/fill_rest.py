"""FillRestToFlag: a `for` loop over ``range`` that, on some iteration, pads its lists with one
value for every iteration left and stops:

    for t in range(n):                                _deploy_filling = False
        ...                                           for t in range(n):
        if parked:                                        if _deploy_filling:
            rest = n - t - 1                  ->              sup.append(torch.ones(()))
            sup.extend([torch.ones(())] * rest)               continue
            break                                         ...
                                                          if parked:
                                                              rest = n - t - 1
                                                              _deploy_filling = True
                                                              continue

A list extended by a run-time number of values cannot be a graph loop's output, but one value per
iteration can (every path appends one: OneAppendPerIteration). The loop then runs its remaining
iterations appending the value each: the same values in the same order, as long as the count is
exactly the iterations left (``n - t - 1``, checked on the source) and the value reads nothing the
skipped iterations would change (the loop's state stays as the `break` left it; not the counter).
The counter must not be read after the loop (it would end at ``n - 1``, not where the loop broke).
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names, read_names
from deploy.rewriters.passes.base import BLOCK_FIELDS, BREAK_SCOPES, Context, Pass, call, map_blocks, name


def _range_stop(loop: ast.For) -> ast.expr | None:
    """``stop`` of ``for t in range([0,] stop)`` (unit step) with a plain name ``t``."""
    it = loop.iter
    if not (isinstance(loop.target, ast.Name) and isinstance(it, ast.Call) and not it.keywords):
        return None
    if not (isinstance(it.func, ast.Name) and it.func.id == "range"):
        return None
    if len(it.args) in (1, 2):
        return it.args[-1]
    if len(it.args) == 3 and isinstance(it.args[2], ast.Constant) and it.args[2].value == 1:
        return it.args[1]
    return None


def _remaining(count: ast.expr, stop: ast.expr, counter: str) -> bool:
    """``count`` is the number of iterations left after ``counter``'s: ``stop - t - 1`` and the like."""
    s, t = f"({ast.unparse(stop)})", counter
    forms = (f"{s} - {t} - 1", f"{s} - 1 - {t}", f"{s} - ({t} + 1)", f"-{t} - 1 + {s}", f"{s} - {t} + -1")
    text = ast.unparse(ast.parse(ast.unparse(count), mode="eval"))
    return any(text == ast.unparse(ast.parse(form, mode="eval")) for form in forms)


def _fill(stmt: ast.stmt) -> tuple[ast.expr, ast.expr, ast.expr] | None:
    """(list, value, count) of ``xs.extend([value] * count)`` (or ``count * [value]``)."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    node = stmt.value
    if not (isinstance(node.func, ast.Attribute) and node.func.attr == "extend" and len(node.args) == 1):
        return None
    product = node.args[0]
    if node.keywords or not (isinstance(product, ast.BinOp) and isinstance(product.op, ast.Mult)):
        return None
    for single, count in ((product.left, product.right), (product.right, product.left)):
        if isinstance(single, ast.List) and len(single.elts) == 1:
            return node.func.value, single.elts[0], count
    return None


class FillRestToFlag(Pass):
    """``xs.extend([v] * (n - t - 1)); break`` in ``for t in range(n)`` -> a flag; later iterations
    append ``v``."""

    name = "fill-rest-to-flag"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, func, ctx))

    def rewrite(self, loop: ast.stmt, func: ast.FunctionDef, ctx: Context) -> list[ast.stmt] | None:
        if not isinstance(loop, ast.For) or loop.orelse:
            return None
        stop = _range_stop(loop)
        if stop is None:
            return None
        counter = loop.target.id
        changed = assigned_names(loop.body)
        if counter in changed or read_names([stop]) & changed or _read_outside(func, loop, counter):
            return None
        flag = ctx.fresh("filling")
        fills: list[tuple[ast.expr, ast.expr]] = []
        slots: list[str | None] = []
        self.unset = _set_only_inside(func, loop)
        loop.body, found = self._flagged(loop.body, stop, counter, flag, fills, slots, ctx)
        if not found:
            return None
        prologue = ast.If(
            test=name(flag),
            body=[
                ast.Expr(call(ast.Attribute(xs, "append", ast.Load()), name(slot) if slot else value))
                for (xs, value), slot in zip(fills, slots)
            ]
            + [ast.Continue()],
            orelse=[],
        )
        prologue._deploy_what = "the lists padded for the iterations left (an `extend` then `break`)"
        loop.body.insert(0, ast.copy_location(prologue, loop.body[0]))
        before = [ast.copy_location(ast.Assign([name(flag, True)], ast.Constant(False)), loop)]
        # a padding value with no value before the loop is kept in a slot when the loop breaks (None
        # before it: read only once the flag is set, so a graph loop gives it a placeholder instead of
        # peeling an iteration)
        before += [
            ast.copy_location(ast.Assign([name(slot, True)], ast.Constant(None)), loop)
            for slot in slots
            if slot
        ]
        for stmt in (*before, loop):
            ast.fix_missing_locations(stmt)
        return [*before, loop]

    def _flagged(self, block, stop, counter, flag, fills, slots, ctx) -> tuple[list[ast.stmt], bool]:
        """``block`` with each ``extend...; break`` run of this loop replaced (see module docstring)."""
        found = False
        for stmt in block:
            if isinstance(stmt, BREAK_SCOPES):
                continue
            for field in BLOCK_FIELDS:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    new, hit = self._flagged(inner, stop, counter, flag, fills, slots, ctx)
                    setattr(stmt, field, new)
                    found = found or hit
        if not block or not isinstance(block[-1], ast.Break):
            return block, found
        first = len(block) - 1
        while first > 0 and _fill(block[first - 1]) is not None:
            first -= 1
        runs = [_fill(s) for s in block[first:-1]]
        if not runs or fills:  # one padding site per loop
            return block, found
        assigned = _counts_assigned(block[:first])
        for _, value, count in runs:
            count = assigned.get(count.id, count) if isinstance(count, ast.Name) else count
            if not _remaining(count, stop, counter) or counter in read_names([value]):
                return block, found
        fills.extend((xs, value) for xs, value, _ in runs)
        # a value reading what the loop sets and nothing sets before it (`s`): kept in a slot
        new = [ctx.fresh("opt_fill") if read_names([value]) & self.unset else None for _, value, _ in runs]
        slots.extend(new)
        kept = [ast.Assign([name(slot, True)], value) for slot, (_, value, _) in zip(new, runs) if slot]
        tail = [*kept, ast.Assign([name(flag, True)], ast.Constant(True)), ast.Continue()]
        for stmt in tail:
            ast.copy_location(stmt, block[-1])
        return block[:first] + tail, True


def _counts_assigned(block: list[ast.stmt]) -> dict[str, ast.expr]:
    """Names assigned once by a plain ``name = expr`` in ``block`` (``rest = n - t - 1``)."""
    seen: dict[str, ast.expr] = {}
    for stmt in block:
        for target in assigned_names([stmt]):
            seen.pop(target, None)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            seen[stmt.targets[0].id] = stmt.value
    return seen


def _set_only_inside(func: ast.FunctionDef, loop: ast.For) -> set[str]:
    """Names ``loop``'s body assigns that nothing else in ``func`` assigns (no value before it)."""
    inside = {id(n) for stmt in loop.body for n in ast.walk(stmt)}
    elsewhere = {
        n.id
        for n in ast.walk(func)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in inside
    }
    return assigned_names(loop.body) - elsewhere


def _read_outside(func: ast.FunctionDef, loop: ast.For, counter: str) -> bool:
    """Whether ``counter`` is read anywhere in ``func`` outside ``loop``'s body."""
    inside = {id(n) for stmt in loop.body for n in ast.walk(stmt)}
    return any(
        isinstance(n, ast.Name) and n.id == counter and isinstance(n.ctx, ast.Load) and id(n) not in inside
        for n in ast.walk(func)
    )
