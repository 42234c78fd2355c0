"""WhileToLoop and ForRangeToLoop: loops become runtime calls that run plain Python on Python
conditions/bounds and emit torch.while_loop (or scan) on tensor conditions or symbolic bounds.

    while c(h):                    def _cond(h): return c(h)
        h = f(h)          ->       def _body(h):
                                       h = f(h)
                                       return (h,)
                                   (h,) = _deploy_rt.while_stmt(_cond, _body, (h,), ("h",), SITE)

    for t in range(n):             def _body(t, h):
        h = f(x[:, t], h)              h = f(x[:, t], h)
        outs.append(h)    ->           _deploy_appended_1 = h
                                       return (h,), (_deploy_appended_1,)
                                   (h,), (outs,) = _deploy_rt.for_range((n,), _body, (h,), (outs,), ...)

Loop-carried variables are those the body assigns that are live at the loop head (read by the next
iteration, the test, or after the loop). ``acc.append(v)`` at the top level of a range-loop body is
an accumulator: one stacked scan output instead of a list mutation.
"""

from __future__ import annotations

import ast

from deploy.rewriters import sites
from deploy.rewriters.analysis import assigned_names, has_node, read_names
from deploy.rewriters.passes.base import (
    Context,
    Pass,
    call,
    constant,
    function_def,
    loop_head_live,
    map_blocks,
    name,
    names_tuple,
    rt,
    safe_loads,
    state_names,
)
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.conditionals import unsupported_reason


def _keep_python(loop: ast.stmt) -> bool:
    return has_node(loop.body, (ast.Return, ast.Yield, ast.YieldFrom)) or has_node(
        loop.body, (ast.Break, ast.Continue), stop=(ast.While, ast.For)
    )


def _guard_python(loop: ast.stmt, site: int) -> list[ast.stmt]:
    if isinstance(loop, ast.While):
        loop.test = call(rt("python_predicate"), loop.test, constant(site))
    else:
        loop.iter.args = [call(rt("python_predicate"), a, constant(site)) for a in loop.iter.args]
    return [loop]


class AppendsAfterBreak(Pass):
    """Right after BreakContinueToFlags: appends a `break` guards in range loops become assignments
    (see _appends_after_break); the loop remembers them as ``_deploy_guarded_appends``."""

    name = "appends-after-break"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        for node in ast.walk(func):
            if is_range_loop(node):
                found = _appends_after_break(node, ctx)
                if found:
                    node._deploy_guarded_appends = found


def _appends_after_break(loop: ast.For, ctx: Context) -> list[tuple[str, str]]:
    """``if done: break`` *before* ``outs.append(y)``: the break pass left the append inside the
    guard ``if not _break: ...``. Each such append becomes ``_deploy_appended_N = y`` there, with
    ``_deploy_appended_N = Undefined`` before the guard (an iteration that breaks appends nothing);
    returns (temp, list name) pairs. Only when every append of the list is such a one and nothing
    after it in the guard can set the flag."""
    flag = getattr(loop, "_break_flag", None)
    if not flag:
        return []
    found = []
    for position, guard, outer_later in _guards(loop.body, flag):
        for index, stmt in enumerate(guard.body):
            acc = _append_target(stmt)
            later = guard.body[index + 1 :] + outer_later
            if acc is None or _loads(loop.body, acc) != 1 or acc in assigned_names(loop.body):
                continue  # read (or assigned) anywhere but by this append
            if flag in assigned_names(later) or acc in [a for _, a, _ in found]:
                continue
            temp = ctx.fresh("appended")
            if _is_prepend(stmt):
                continue
            guard.body[index] = ast.copy_location(ast.Assign([name(temp, True)], _appended_value(stmt)), stmt)
            found.append((temp, acc, position))
    for temp, _, position in reversed(found):
        initial = ast.Assign([name(temp, True)], call(rt("Undefined"), constant("append")))
        loop.body.insert(position, ast.copy_location(initial, loop.body[position]))
    for temp, _, _ in found:  # read at the end of the body, so the guard's cond returns it
        loop.body.append(ast.copy_location(ast.Expr(name(temp)), loop.body[-1]))
    return [(temp, acc) for temp, acc, _ in found]


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


def _append_target(stmt: ast.stmt) -> str | None:
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
    if _is_prepend(stmt):
        return call_.func.value.id
    return None


def _is_prepend(stmt: ast.stmt) -> bool:
    """``name.insert(0, v)``: the value goes to the front (a backward loop collecting outputs)."""
    call_ = stmt.value
    return (
        call_.func.attr == "insert"
        and len(call_.args) == 2
        and isinstance(call_.args[0], ast.Constant)
        and call_.args[0].value == 0
    )


def _appended_value(stmt: ast.stmt) -> ast.expr:
    return stmt.value.args[-1]


def _accumulators(body: list[ast.stmt]) -> list[tuple[int, str, ast.expr]]:
    """(statement index, list name, appended value) for top-level ``name.append(value)``."""
    found = []
    assigned = assigned_names(body)
    for index, stmt in enumerate(body):
        target = _append_target(stmt)
        if target is not None and target not in assigned:
            found.append((index, target, _appended_value(stmt)))
    names = [n for _, n, _ in found]
    others = [s for i, s in enumerate(body) if i not in {j for j, _, _ in found}]
    used_elsewhere = read_names(others) | read_names([v for _, _, v in found])
    return [f for f in found if names.count(f[1]) == 1 and f[1] not in used_elsewhere]


class WhileToLoop(Pass):
    """`while` loops -> runtime while_stmt (see module docstring)."""

    name = "while-to-loop"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx) if isinstance(stmt, ast.While) else None)

    def rewrite(self, loop: ast.While, ctx: Context) -> list[ast.stmt]:
        # appends with no step-counter bound: the loop runs twice, to count, then to fill
        bound = getattr(loop, "_deploy_bound", None) or ast.Constant(None)
        accumulators = _accumulators(loop.body)
        accumulators = [a for a in accumulators if not _is_prepend(loop.body[a[0]])]
        acc_indices = {i for i, _, _ in accumulators}
        rest = [s for i, s in enumerate(loop.body) if i not in acc_indices]
        site = ctx.new_site("while", loop, ctx.describe(loop, loop.test), unsupported_reason(rest))
        sites.get_site(site).row_appends = getattr(loop, "_deploy_row_appends", {})
        if loop.orelse or _keep_python(loop):
            return _guard_python(loop, site)
        carried = state_names(assigned_names(loop.body) & loop_head_live(loop))
        cond_name, body_name = ctx.fresh("cond"), ctx.fresh("body")
        cond_def = function_def(cond_name, carried, [ast.copy_location(ast.Return(loop.test), loop)], loop)
        body, appended = _appended_temps(loop.body, accumulators, ctx)
        result_value = names_tuple(carried)
        if accumulators:
            result_value = ast.Tuple([result_value, names_tuple(appended)], ast.Load())
        returned = ast.copy_location(ast.Return(result_value), loop)
        body_def = function_def(body_name, carried, body + [returned], loop)
        loads, current = safe_loads(carried, getattr(loop, "_defined", set()), ctx, loop)
        names = ast.Tuple([constant(c) for c in carried], ast.Load())
        args = [name(cond_name), name(body_name), current, names, constant(site)]
        defs = [cond_def, body_def]
        target: ast.expr = names_tuple(carried, store=True)
        if accumulators:
            lists = [n for _, n, _ in accumulators]
            cap_name = ctx.fresh("capacity")
            defs.append(function_def(cap_name, carried, [ast.copy_location(ast.Return(bound), loop)], loop))
            args += [names_tuple(lists), name(cap_name)]
            target = ast.Tuple([target, names_tuple(lists, store=True)], ast.Store())
        dispatch = call(rt("while_stmt"), *args)
        if getattr(loop, "_deploy_row_lists", False) and not accumulators:
            # lists the loop appends to and reads: room for one row per iteration (row_lists.py)
            room_name = ctx.fresh("room")
            defs.append(function_def(room_name, carried, [ast.copy_location(ast.Return(bound), loop)], loop))
            dispatch.keywords.append(ast.keyword("row_room", name(room_name)))
            if getattr(loop, "_deploy_work_stack", False):  # a list the loop pops (work_stacks.py)
                dispatch.keywords.append(ast.keyword("work_stack", constant(True)))
        result = ast.Assign([target], dispatch) if carried or accumulators else ast.Expr(dispatch)
        return [*defs, *loads, ast.copy_location(result, loop)]


def _appended_temps(body: list[ast.stmt], accumulators, ctx: Context) -> tuple[list[ast.stmt], list[str]]:
    """The body with each accumulator ``name.append(v)`` replaced by ``_deploy_appended_N = v``."""
    body = list(body)
    temps = []
    for index, _, value in accumulators:
        temp = ctx.fresh("appended")
        temps.append(temp)
        body[index] = ast.copy_location(ast.Assign([name(temp, True)], value), body[index])
    return body, temps


class AnnotateCounterBounds(Pass):
    """Before the tests are rewritten: note on each `while` loop the bound its step counter gives
    (``_deploy_bound``, read by WhileToLoop for loops that append to lists)."""

    name = "annotate-counter-bounds"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        for node in ast.walk(func):
            if isinstance(node, ast.While):
                bound = _counter_bound(node)
                if bound is not None:
                    node._deploy_bound = bound


def _counter_bound(loop: ast.While) -> ast.expr | None:
    """For ``while step < N`` or ``while step < N and ...`` (``<=`` too) whose body adds 1 to ``step`` once at its top
    level and assigns neither ``step`` nor anything ``N`` reads otherwise: the expression for the
    most iterations still possible (``N - step``), else None."""
    test = loop.test
    tests = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    increments = [s for s in loop.body if _adds_one(s)]
    for test in tests:
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Lt, ast.LtE))
        ):
            continue
        counter, limit = test.left.id, test.comparators[0]
        steps = [s for s in increments if _target(s) == counter]
        others = [s for s in loop.body if s not in steps]
        if (
            len(steps) != 1
            or counter in assigned_names(others)
            or assigned_names(loop.body) & read_names([limit])
        ):
            continue
        room = ast.BinOp(limit, ast.Sub(), ast.Name(counter, ast.Load()))
        if isinstance(test.ops[0], ast.LtE):
            room = ast.BinOp(room, ast.Add(), ast.Constant(1))
        return ast.fix_missing_locations(ast.copy_location(room, loop))
    return None


def _target(stmt: ast.stmt) -> str:
    return stmt.target.id if isinstance(stmt, ast.AugAssign) else stmt.targets[0].id


def _is_one(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value == 1 and not isinstance(value.value, bool)


def _adds_one(stmt: ast.stmt) -> bool:
    """``step += 1`` or ``step = step + 1``."""
    if isinstance(stmt, ast.AugAssign):
        return isinstance(stmt.target, ast.Name) and isinstance(stmt.op, ast.Add) and _is_one(stmt.value)
    return (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.BinOp)
        and isinstance(stmt.value.op, ast.Add)
        and isinstance(stmt.value.left, ast.Name)
        and stmt.value.left.id == stmt.targets[0].id
        and _is_one(stmt.value.right)
    )


class ForRangeToLoop(Pass):
    """`for t in range(...)` loops -> runtime for_range (see module docstring)."""

    name = "for-range-to-loop"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx) if is_range_loop(stmt) else None)

    def rewrite(self, loop: ast.For, ctx: Context) -> list[ast.stmt]:
        header = getattr(loop, "_deploy_what", None) or f"for {loop.target.id} in {ctx.source_of(loop.iter)}"
        guarded = getattr(loop, "_deploy_guarded_appends", [])
        accumulators = _accumulators(loop.body)
        acc_indices = {i for i, _, _ in accumulators}
        rest = [s for i, s in enumerate(loop.body) if i not in acc_indices]
        site = ctx.new_site("for", loop, header, unsupported_reason(rest))
        sites.get_site(site).row_appends = getattr(loop, "_deploy_row_appends", {})
        counter = loop.target.id
        if _keep_python(loop) or counter in getattr(loop, "_live_after", set()):
            return _guard_python(loop, site)
        body = list(loop.body)
        appended = [temp for temp, _ in guarded]
        for index, _, value in accumulators:
            temp = ctx.fresh("appended")
            appended.append(temp)
            body[index] = ast.copy_location(ast.Assign([name(temp, True)], value), body[index])
        carried = set(assigned_names(loop.body)) & loop_head_live(loop)
        flag = getattr(loop, "_break_flag", None)
        if flag:
            carried.add(flag)
        carried = state_names(carried - {counter})
        body_name = ctx.fresh("body")
        returned = ast.Return(ast.Tuple([names_tuple(carried), names_tuple(appended)], ast.Load()))
        body_def = function_def(
            body_name, [counter, *carried], body + [ast.copy_location(returned, loop)], loop
        )
        loads, current = safe_loads(carried, getattr(loop, "_defined", set()), ctx, loop)
        list_names = [acc for _, acc in guarded] + [n for _, n, _ in accumulators]
        lists = names_tuple(list_names)
        names = ast.Tuple([constant(c) for c in carried], ast.Load())
        bounds = ast.Tuple(list(loop.iter.args), ast.Load())
        break_index = carried.index(flag) if flag else -1
        dispatch = call(
            rt("for_range"),
            bounds,
            name(body_name),
            current,
            lists,
            names,
            constant(site),
            constant(break_index),
            constant(bool(guarded)),
            ast.Tuple(
                [constant(False) for _ in guarded]
                + [constant(_is_prepend(loop.body[i])) for i, _, _ in accumulators],
                ast.Load(),
            ),
        )
        target = ast.Tuple(
            [names_tuple(carried, store=True), names_tuple(list_names, store=True)], ast.Store()
        )
        return [body_def, *loads, ast.copy_location(ast.Assign([target], dispatch), loop)]
