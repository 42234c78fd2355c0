"""OneAppendPerIteration: a range loop with a tensor `continue` whose every path appends once.

    for t in range(n):                         for t in range(n):
        if (x[:, t] < 0).all():                    for _deploy_once_1 in range(1):
            outs.append(h)                             if (x[:, t] < 0).all():
            continue                 ->                    _deploy_appended_2 = h
        h = h + x[:, t]                                    break
        outs.append(h)                                 h = h + x[:, t]
                                                       _deploy_appended_2 = h
                                                   outs.append(_deploy_appended_2)

Every path through the body appends exactly one value, but an append inside a converted branch
is a mutation a graph op cannot make. The body runs inside a one-iteration loop where `continue`
becomes `break` (BreakContinueToFlags turns it into a flag and conds, as for any loop that stays
Python), each append becomes an assignment of one variable, and the one append after it is the
loop's accumulator (a scan output). Loops where some path appends twice are left alone. Without a
`continue`, a body whose `if`/`else` branches each append once gets the same treatment minus the
one-iteration loop. A path that breaks (`kept.append(fix); break`, or `if end: break` before any
append, which then records that it appended nothing) sets a stop flag and leaves the one-iteration
loop; the loop appends the iteration's value (if any), then breaks on the flag. (A loop with no
`continue` whose appends are not in branches, `if eos: break` then `outs.append(tok)`, is
AppendsAfterBreak's case.)

Where some paths append and others do not (``if hits >= k: detections.append(d)``), each iteration
also records whether it appended (``_deploy_kept``, a second accumulator), and after the loop
``_deploy_rt.compact`` keeps the appended values only: a data-dependent number of rows.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, call, map_blocks, name, rooted_at_self, rt
from deploy.rewriters.passes.breaks import is_range_loop


def append_target(stmt: ast.stmt) -> str | None:
    if (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Attribute)
        and stmt.value.func.attr == "append"
        and isinstance(stmt.value.func.value, ast.Name)
        and len(stmt.value.args) == 1
        and not stmt.value.keywords
    ):
        return stmt.value.func.value.id
    return None


# statements whose paths (a `continue` in a `match` case, ...) this analysis does not follow
_UNFOLLOWED = (
    ast.For,
    ast.While,
    ast.Try,
    ast.With,
    ast.FunctionDef,
    ast.Return,
    ast.Match,
    ast.AsyncFor,
    ast.AsyncWith,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    getattr(ast, "TryStar", ast.Try),
)


def paths_through(
    stmts: list[ast.stmt], target: str, reads: bool = False, exits: bool = False
) -> set[tuple[int, str]] | None:
    """(appends to ``target``, how the path ends) for every path through ``stmts``; None when the
    statements hold constructs this analysis does not follow (loops, try, break, nested defs), or
    use the list otherwise: ``reads``: only a change of it counts (``row[j - 1]``, ``len(row)`` of
    a list the loop carries as rows, passes/row_lists.py), not a read. ``exits``: the `break` of
    a `return` in the loop (passes/loop_exits.py) ends its path as "exit"."""
    paths = {(0, "")}
    for stmt in stmts:
        ongoing = {p for p in paths if not p[1]}
        done = paths - ongoing
        if not ongoing:
            return paths
        if isinstance(stmt, (ast.Continue, ast.Break)):
            end = "continue" if isinstance(stmt, ast.Continue) else "break"
            if exits and getattr(stmt, "_deploy_exit", False):
                end = "exit"
            paths = done | {(n, end) for n, _ in ongoing}
        elif isinstance(stmt, ast.If):
            branches = [
                paths_through(stmt.body, target, reads, exits),
                paths_through(stmt.orelse, target, reads, exits),
            ]
            if None in branches or (reads and _uses(stmt.test, target, reads)):
                return None
            paths = done | {(n + m, end) for n, _ in ongoing for m, end in branches[0] | branches[1]}
        elif isinstance(stmt, (ast.For, ast.While)) and not _touches(stmt, target, reads):
            continue  # a nested loop (over a ModuleList, ...) that leaves the list alone
        elif isinstance(stmt, _UNFOLLOWED):
            return None
        elif append_target(stmt) == target:
            paths = done | {(n + 1, "") for n, _ in ongoing}
        elif _uses(stmt, target, reads):
            return None  # the list is read or changed otherwise
        else:
            continue
    return paths


def _touches(stmt: ast.stmt, target: str, reads: bool = False) -> bool:
    """Whether ``stmt`` reads or changes ``target`` or returns (``reads``: changes, not reads)."""
    return any(isinstance(n, ast.Return) for n in ast.walk(stmt)) or _uses(stmt, target, reads)


def _uses(stmt: ast.stmt, target: str, reads: bool) -> bool:
    """Whether ``stmt`` reads or changes ``target``; ``reads``: whether it may change its length
    (binds the name, or calls a method on it: ``append``, ``pop``, ``extend``, ...)."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id == target:
            if not reads or not isinstance(node.ctx, ast.Load):
                return True
        elif reads and isinstance(node, (ast.Call, ast.Subscript)):
            # `row.pop()`, `del row[0]`, `row[a:b] = ...` (also `row[k] = v`, conservatively)
            owner = node.func if isinstance(node, ast.Call) else node
            changes = isinstance(node, ast.Call) or not isinstance(node.ctx, ast.Load)
            if changes and isinstance(owner, (ast.Attribute, ast.Subscript)):
                if isinstance(owner.value, ast.Name) and owner.value.id == target:
                    return True
    return False


# the most append statements for one list in a loop body that get a slot each per iteration
_MOST_SLOTS = 4


def _rewrite_body(stmts: list[ast.stmt], target: str, slots: dict, stop: str | None = None) -> list[ast.stmt]:
    """The body with each append to ``target`` an assignment of its slot's value (and flag):
    ``slots`` maps an append statement's id to (value variable, flag variable or None)."""
    out = []
    for stmt in stmts:
        if isinstance(stmt, ast.Continue):
            out.append(ast.copy_location(ast.Break(), stmt))
        elif isinstance(stmt, ast.Break) and stop is not None:  # ends the one-iteration loop too
            out.append(
                ast.fix_missing_locations(
                    ast.copy_location(ast.Assign([name(stop, True)], ast.Constant(True)), stmt)
                )
            )
            out.append(stmt)
        elif append_target(stmt) == target:
            temp, flag = slots[id(stmt)]
            out.append(ast.copy_location(ast.Assign([name(temp, True)], stmt.value.args[0]), stmt))
            if flag is not None:
                kept = ast.Assign([name(flag, True)], ast.Constant(True))
                out.append(ast.fix_missing_locations(ast.copy_location(kept, stmt)))
        elif isinstance(stmt, ast.If):
            stmt.body = _rewrite_body(stmt.body, target, slots, stop)
            stmt.orelse = _rewrite_body(stmt.orelse, target, slots, stop)
            out.append(stmt)
        else:
            out.append(stmt)
    return out


class OneAppendPerIteration(Pass):
    """Range loops with `continue` that append once on every path (see module docstring)."""

    name = "one-append-per-iteration"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx) if _is_loop(stmt) else None)

    def rewrite(self, loop: ast.For | ast.While, ctx: Context) -> None:
        has_continue = any(isinstance(s, ast.Continue) for s in own_statements(loop.body))
        targets = {append_target(s) for s in own_statements(loop.body)} - {None}
        # without `continue`: appends inside the branches of an `if` (`if p: outs.append(a) else:
        # outs.append(b)`) become one assignment per branch and one append after them
        in_branches = any(append_target(s) for s in own_statements(loop.body) if s not in loop.body)
        # a `while` whose break (`if not remaining.any(): break` in a branch) skips the append, or a
        # loop over the model's modules (`if residual.max() < tol: break` after one)
        breaks = (isinstance(loop, ast.While) or _over_attributes(loop)) and any(
            isinstance(s, ast.Break) for s in own_statements(loop.body)
        )
        if loop.orelse or not (has_continue or in_branches or breaks) or not targets:
            return None
        masked, stop, slotted = {}, None, {}
        # each list: at most one append on every path (`states`, `rejected`, ...), or a slot per
        # append statement (slot_lists.py); in sorted order, so the flags' numbers (and the converted
        # source) do not depend on string hashing
        for target in sorted(targets):
            paths = paths_through(loop.body, target)
            if paths is None:
                return None
            if any(n > 1 for n, _ in paths):
                statements = [s for s in own_statements(loop.body) if append_target(s) == target]
                if len(statements) > _MOST_SLOTS:
                    return None
                slotted[target] = [(s, ctx.fresh("appended"), ctx.fresh("kept")) for s in statements]
            elif any(n == 0 for n, _ in paths):
                # lists appended side by side (`kept.append(f); scores.append(s)`) share a flag, so
                # their rows are kept at the same positions (one data-dependent length, not two)
                twin = next((t for t in masked if _side_by_side(loop.body, t, target)), None)
                masked[target] = masked[twin] if twin else ctx.fresh("kept")
            if any(end == "break" for _, end in paths):
                stop = stop or ctx.fresh("stop")
        temps = {target: ctx.fresh("appended") for target in sorted(targets) if target not in slotted}
        body = loop.body
        for index, target in enumerate(sorted(targets)):
            slots = {id(s): (temp, flag) for s, temp, flag in slotted.get(target, ())}
            if target in temps:
                slots = {id(s): (temps[target], masked.get(target)) for s in own_statements(body)}
            body = _rewrite_body(body, target, slots, stop if index == 0 else None)
        # the temps (and flags) have a value before the statements that may assign them
        slot_names = [(temp, flag) for found in slotted.values() for _, temp, flag in found]
        inits = [ast.Assign([name(temp, True)], ast.Constant(None)) for temp in temps.values()]
        inits += [
            ast.Assign([name(flag, True)], ast.Constant(False)) for flag in sorted(set(masked.values()))
        ]
        for temp, flag in slot_names:
            inits += [ast.Assign([name(temp, True)], ast.Constant(None))]
            inits += [ast.Assign([name(flag, True)], ast.Constant(False))]
        if stop is not None:
            inits.append(ast.Assign([name(stop, True)], ast.Constant(False)))
        if has_continue or stop is not None:
            body = [
                ast.For(
                    target=name(ctx.fresh("once"), True),
                    iter=call(name("range"), ast.Constant(1)),
                    body=body,
                    orelse=[],
                )
            ]
        appends = [append_of(target, temp) for target, temp in temps.items()]
        flag_masks = {flag: ctx.fresh("masks") for flag in sorted(set(masked.values()))}
        masks = {target: flag_masks[flag] for target, flag in masked.items()}
        appends += [append_of(m, flag) for flag, m in flag_masks.items()]
        # `[]`, or the flags' own list naming the lists they mask (counted_rows.rows_for)
        before = [
            ast.Assign(
                [name(m, True)], call(rt("flags_of"), *(name(t) for t, tm in masks.items() if tm == m))
            )
            for m in flag_masks.values()
        ]
        after = [  # (a site for the modules such a list may hold: kept_objects.py)
            ast.Assign(
                [name(target, True)],
                call(rt("compact"), name(target), name(m), ast.Constant(ctx.new_site("index", loop, target))),
            )
            for target, m in masks.items()
        ]
        for target, found in slotted.items():
            lists = [target] + [ctx.fresh("slot") for _ in found[1:]]
            flags = [ctx.fresh("masks") for _ in found]
            appends += [append_of(lst, temp) for lst, (_, temp, _) in zip(lists, found)]
            appends += [append_of(m, flag) for m, (_, _, flag) in zip(flags, found)]
            before += [ast.Assign([name(m, True)], ast.List([], ast.Load())) for m in lists[1:] + flags]
            listed = [ast.List([name(m) for m in names], ast.Load()) for names in (lists[1:], flags)]
            after.append(ast.Assign([name(target, True)], call(rt("compact_slots"), name(target), *listed)))
        for stmt in (*inits, *appends, *before, *after):
            ast.copy_location(stmt, loop.body[0])
            ast.fix_missing_locations(stmt)
        # `append(v); break`: the iteration's values are appended, then the loop stops
        ends = [ast.If(test=name(stop), body=[ast.Break()], orelse=[])] if stop is not None else []
        for stmt in ends:
            ast.copy_location(stmt, loop.body[-1])
            ast.fix_missing_locations(stmt)
        if _over_attributes(loop) or _over_constants(loop):  # a loop that stays Python (breaks.py)
            for stmt in (*inits, *appends):
                stmt._deploy_unguarded = True
        loop.body = [*inits, *body, *appends, *ends]
        return [*before, loop, *after] if masks or slotted else None


def _is_loop(stmt: ast.stmt) -> bool:
    """A range loop, a `while` (whose appends become a count-then-fill buffer, buffered_while.py), or
    a loop over a literal tuple of constants (`for delta in (0, -1, 1)`: it stays Python, and an
    append a tensor `continue` may skip is kept or dropped by its flag)."""
    return (
        is_range_loop(stmt) or isinstance(stmt, ast.While) or _over_constants(stmt) or _over_attributes(stmt)
    )


def _over_attributes(stmt: ast.stmt) -> bool:
    """``for book in self.codebooks`` (``enumerate(...)``, ``zip(...)`` of such): a loop over modules
    or constants of the model, which stays Python like a loop over a literal tuple."""
    if not isinstance(stmt, ast.For) or stmt.orelse:
        return False
    it = stmt.iter
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id in ("enumerate", "zip"):
        if it.keywords or not it.args:
            return False
        return all(isinstance(a, ast.Attribute) and rooted_at_self(a) for a in it.args)
    return isinstance(it, ast.Attribute) and rooted_at_self(it)


def _over_constants(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.For)
        and not stmt.orelse
        and isinstance(stmt.iter, (ast.Tuple, ast.List))
        and all(_constant(e) for e in stmt.iter.elts)
    )


def _constant(node: ast.expr) -> bool:
    """``2``, ``"a"``, ``-1`` (a negative number is a unary minus on a constant)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant)


def append_of(target: str, value: str) -> ast.stmt:
    """``target.append(value)`` of two names."""
    return ast.Expr(call(ast.Attribute(value=name(target), attr="append", ctx=ast.Load()), name(value)))


def own_statements(stmts: list[ast.stmt]):
    """Statements of a loop body, through `if`s but not into nested loops or functions."""
    for stmt in stmts:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from own_statements(stmt.body)
            yield from own_statements(stmt.orelse)


def _side_by_side(stmts: list[ast.stmt], first: str, second: str) -> bool:
    """Every append to ``first`` has an append to ``second`` in the same block with only plain
    statements between them (no jump, no branch), and the other way round: one path appends both."""
    pairs = 0
    for block in _blocks(stmts):
        found = [i for i, s in enumerate(block) if append_target(s) in (first, second)]
        if not found:
            continue
        if len(found) != 2 or {append_target(block[i]) for i in found} != {first, second}:
            return False
        between = block[found[0] + 1 : found[1]]
        if not all(isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)) for s in between):
            return False
        pairs += 1
    return pairs > 0


def _blocks(stmts: list[ast.stmt]):
    """The statement lists of a loop body, through `if`s but not into nested loops or functions."""
    yield stmts
    for stmt in stmts:
        if isinstance(stmt, ast.If):
            yield from _blocks(stmt.body)
            yield from _blocks(stmt.orelse)
