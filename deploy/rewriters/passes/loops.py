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
from deploy.rewriters.passes.block_counts import mark_block_loops
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.conditionals import unsupported_reason
from deploy.rewriters.passes.deletions import deleted_lists
from deploy.rewriters.passes.guarded_appends import added_to, appended_value, is_prepend
from deploy.rewriters.passes.length_bounds import length_bound


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


def _copy_counter(loop: ast.For, ctx: Context) -> None:
    """``for i in range(n): ...`` with ``i`` read after the loop: the loop counts in a fresh name and
    the body's first statement copies it to ``i``, an ordinary loop variable. A loop that stops at a
    tensor `break` then leaves the value of the iteration that broke (a counter the graph loop
    advanced, or a Python loop's idle iterations, would not)."""
    copy = ctx.fresh("counter")
    first = ast.Assign([name(loop.target.id, True)], name(copy))
    loop.body.insert(0, ast.copy_location(first, loop.body[0]))
    loop.target = ast.copy_location(name(copy, True), loop.target)


def _accumulators(body: list[ast.stmt]) -> list[tuple[int, str, ast.expr]]:
    """(statement index, list name, appended value) for top-level ``name.append(value)``."""
    found = []
    assigned = assigned_names(body)
    for index, stmt in enumerate(body):
        target = added_to(stmt)
        if target is not None and target not in assigned:
            found.append((index, target, appended_value(stmt)))
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
        accumulators = [a for a in accumulators if not is_prepend(loop.body[a[0]])]
        acc_indices = {i for i, _, _ in accumulators}
        rest = [s for i, s in enumerate(loop.body) if i not in acc_indices]
        site = ctx.new_site("while", loop, ctx.describe(loop, loop.test), unsupported_reason(rest))
        sites.get_site(site).row_appends = getattr(loop, "_deploy_row_appends", {})
        sites.get_site(site).row_deleted = deleted_lists(loop)
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
                bound = _counter_bound(node) or length_bound(node)  # or rows a length test allows
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
            or _continues_before(loop.body, steps[0])
        ):
            continue
        room = ast.BinOp(limit, ast.Sub(), ast.Name(counter, ast.Load()))
        if isinstance(test.ops[0], ast.LtE):
            room = ast.BinOp(room, ast.Add(), ast.Constant(1))
        return ast.fix_missing_locations(ast.copy_location(room, loop))
    return None


def _continues_before(body: list[ast.stmt], step: ast.stmt) -> bool:
    """A `continue` of the loop itself ahead of its step: an iteration taking it skips the step,
    so the counter bounds the steps taken, not the iterations (``if v < eps: continue`` then
    ``kept.append(v)``, whose length counter follows it)."""
    for stmt in body[: body.index(step)]:
        if has_node([stmt], (ast.Continue,), stop=(ast.For, ast.While, ast.FunctionDef, ast.Lambda)):
            return True
    return False


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
        mark_block_loops(func)
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx) if is_range_loop(stmt) else None)

    def rewrite(self, loop: ast.For, ctx: Context) -> list[ast.stmt]:
        header = getattr(loop, "_deploy_what", None) or f"for {loop.target.id} in {ctx.source_of(loop.iter)}"
        if not _keep_python(loop) and loop.target.id in getattr(loop, "_live_after", set()):
            _copy_counter(loop, ctx)
        guarded = getattr(loop, "_deploy_guarded_appends", [])
        accumulators = _accumulators(loop.body)
        acc_indices = {i for i, _, _ in accumulators}
        rest = [s for i, s in enumerate(loop.body) if i not in acc_indices]
        site = ctx.new_site("for", loop, header, unsupported_reason(rest))
        sites.get_site(site).row_appends = getattr(loop, "_deploy_row_appends", {})
        sites.get_site(site).row_growing = getattr(loop, "_deploy_row_growing", frozenset())
        sites.get_site(site).ceiling_blocks = getattr(loop, "_deploy_ceiling_blocks", False)
        counter = loop.target.id
        if _keep_python(loop):
            return _guard_python(loop, site)
        body = list(loop.body)
        appended = [temp for temp, _ in guarded]
        for index, _, value in accumulators:
            temp = ctx.fresh("appended")
            appended.append(temp)
            body[index] = ast.copy_location(ast.Assign([name(temp, True)], value), body[index])
        carried = set(assigned_names(loop.body)) & loop_head_live(loop)
        flag = getattr(loop, "_break_flag", None)
        skip = getattr(loop, "_deploy_skip_flag", None) or flag
        carried |= {f for f in (flag, skip) if f}
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
        skip_index = carried.index(skip) if guarded else -1
        dispatch = call(
            rt("for_range"),
            bounds,
            name(body_name),
            current,
            lists,
            names,
            constant(site),
            constant(break_index),
            constant(skip_index),
            ast.Tuple(
                [constant(False) for _ in guarded]
                + [constant(is_prepend(loop.body[i])) for i, _, _ in accumulators],
                ast.Load(),
            ),
        )
        target = ast.Tuple(
            [names_tuple(carried, store=True), names_tuple(list_names, store=True)], ast.Store()
        )
        return [body_def, *loads, ast.copy_location(ast.Assign([target], dispatch), loop)]
