"""ListsReadInTheirLoop: a list that a `for ... in range(...)` loop (or a `while` loop a step
counter bounds) appends to and also reads (`torch.stack(kept)`, `len(kept)`, `kept[j]`, `for v in
kept`) becomes a loop variable: each append is an assignment, and `kept = []` inside the loop a
reset.

    kept = []                                  kept = []
    for i in range(n):                         for i in range(n):
        if len(kept) > 0 and ...:       ->         if len(kept) > 0 and ...:
            continue                                   continue
        kept.append(x[i])                          kept = _deploy_rt.list_append(kept, x[i], "kept")

A `while` loop driven by a list it pops (``while stack: i, j = stack.pop()``, a work stack or
queue) carries that list the same way: each pop statement becomes ``stack, tmp = list_pop(stack)``
and the test ``list_truth(stack)`` (work_stacks.py). A range loop may pop such a list too (a run
stack: ``cur = values.pop()``, ``run = lengths.pop() + 1``), each pop taken out ahead of its
statement (list_pops.py).

Eagerly `list_append` appends and returns the same list; a graph loop carries the list as a
buffer and a count (row_lists.py). Lists the loop only appends to are the earlier passes' (a
scan's stacked outputs); lists created inside the loop body are local to one iteration.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names
from deploy.rewriters.passes.appends import stays_python
from deploy.rewriters.passes.base import Context, Pass, call, constant, map_blocks, name, rt
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.list_pops import hoist_pop, hoistable_pops, popped_list
from deploy.rewriters.passes.row_appends import (
    append_of,
    appends_once,
    appends_per_iteration,
    directly_in,
    nested_appends_only,
    only_grows,
    walk,
)


def _target_names(target: ast.AST):
    """The names an assignment target binds (through tuples and starred, not into subscripts)."""
    if isinstance(target, ast.Name):
        yield target
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _target_names(element)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)


def _inside(node: ast.AST, loop: ast.AST) -> bool:
    return any(n is node for n in walk(loop.body))


def _is_empty_list(node: ast.AST) -> bool:
    return isinstance(node, ast.List) and not node.elts


def _len_of(node: ast.AST) -> str | None:
    """``len(xs)``: ``xs``."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
    ):
        return node.args[0].id
    return None


def _stack_test(test: ast.AST) -> str | None:
    """The list a `while` test asks for being non-empty: ``xs``, ``len(xs)``, ``len(xs) > 0``,
    ``len(xs) != 0``, ``len(xs) >= 1``, also as the first operand of an ``and``."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return _stack_test(test.values[0])
    if isinstance(test, ast.Name):
        return test.id
    if _len_of(test):
        return _len_of(test)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant):
        op, bound = test.ops[0], test.comparators[0].value
        nonempty = (isinstance(op, (ast.Gt, ast.NotEq)) and bound == 0) or (
            isinstance(op, ast.GtE) and bound == 1
        )
        return _len_of(test.left) if nonempty else None
    return None


def _work_stack(loop: ast.For | ast.While) -> str | None:
    """A `while` loop driven by a list it pops (a work stack / queue): the list, when every pop of
    it is a statement of its own (``i, j = stack.pop()``, ``stack.pop(0)``)."""
    if not isinstance(loop, ast.While):
        return None
    target = _stack_test(loop.test)
    if target is None:
        return None
    pops = [n for n in walk(loop.body) if popped_list(n) == target]
    whole = [
        s.value
        for s in walk(loop.body)
        if isinstance(s, (ast.Assign, ast.Expr)) and popped_list(s.value) == target
    ]
    if not pops or len(pops) != len(whole):
        return None
    return target


def _candidates(loop: ast.For | ast.While, before: set[str]) -> set[str]:
    """Lists appended in the loop body and read there otherwise, created before the loop."""
    appended, receivers, other_reads, created_inside = set(), set(), set(), set()
    hoisted = hoistable_pops(walk(loop.body))  # `x = xs.pop()`, `run = xs.pop() + 1` (list_pops.py)
    for node in walk(loop.body):
        target = append_of(node)
        if target is not None:
            appended.add(target)
            receivers.add(id(node.value.func.value))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = [(target, node.value)]
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs = list(zip(target.elts, node.value.elts))
                for t, value in pairs:
                    for leaf in _target_names(t):  # not `bins` of `bins[b] = ...`: a row replaced
                        if not (leaf is t and _is_empty_list(value)):
                            created_inside.add(leaf.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("extend", "insert", "pop", "remove", "clear", "sort", "reverse"):
                if isinstance(node.func.value, ast.Name) and id(node) not in hoisted:
                    created_inside.add(node.func.value.id)  # other mutations: left alone
    tests = [loop.test] if isinstance(loop, ast.While) else []  # `while len(picked) < k and ...`
    for node in walk([*loop.body, *tests]):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in receivers:
            other_reads.add(node.id)
        if isinstance(node, (ast.For, ast.While)):  # appended by a nested loop too: carried by both
            nested = {t for t in map(append_of, walk(node.body)) if t is not None}
            own = {append_of(n) for n in walk(loop.body) if not _inside(n, node)}
            other_reads.update(nested & own)
            # a search loop directly in the body appending what it found (`if hit: xs.append(v);
            # break`): at most one row per iteration, so the outer loop carries the list as rows too
            # (its appends reassign the list, which a graph loop can only carry as a RowList)
            if directly_in(node, loop):
                other_reads.update(t for t in nested if appends_once(node, t))
    return (appended & other_reads & before) - created_inside


class _Appends(ast.NodeTransformer):
    def __init__(self, names: set[str], ctx: Context):
        self.names, self.ctx = names, ctx

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        hoisted = hoist_pop(node, self.names, self.ctx, self.visit)
        if hoisted is not None:
            return hoisted
        target = append_of(node)
        if target not in self.names:
            return self.generic_visit(node)
        row = self.visit(node.value.args[0])  # `cur.append(cur[j] + 1)` reads the list too
        value = call(rt("list_append"), name(target), row, constant(target))
        return ast.copy_location(ast.Assign([name(target, True)], value), node)

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        hoisted = hoist_pop(node, self.names, self.ctx, self.visit)
        if hoisted is not None:
            return hoisted
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id in self.names
            and _is_empty_list(node.value)
        ):
            reset = call(rt("list_reset"), name(node.targets[0].id))
            return ast.copy_location(ast.Assign(node.targets, reset), node)
        return self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        hoisted = hoist_pop(node, self.names, self.ctx, self.visit)
        return hoisted if hoisted is not None else self.generic_visit(node)

    visit_AnnAssign = visit_AugAssign

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Name)
            and node.value.id in self.names
        ):
            return ast.copy_location(
                call(rt("list_item"), node.value, node.slice, constant(node.value.id)), node
            )
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node

    visit_Lambda = visit_FunctionDef


class ListsReadInTheirLoop(Pass):
    """Lists a range loop appends to and reads -> loop variables (see module docstring)."""

    name = "lists-read-in-their-loop"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        # names bound in the function (arguments too): a range bound naming one may be dynamic
        self.local = assigned_names(func.body) | {
            a.arg for a in ast.walk(func.args) if isinstance(a, ast.arg)
        }
        map_blocks(func, lambda stmt: self.rewrite(stmt, func, ctx))

    def rewrite(self, loop: ast.stmt, func: ast.FunctionDef, ctx: Context) -> None:
        bounded = isinstance(loop, ast.While) and getattr(loop, "_deploy_bound", None) is not None
        stack = _work_stack(loop)
        if not (is_range_loop(loop) or isinstance(loop, ast.While)) or loop.orelse:
            return None
        if stays_python(loop, self.local):  # `for b in range(BANDS)`: its lists stay Python lists
            return None
        names = _candidates(loop, _lists_outside(func, loop))
        if stack and stack not in names:
            stack = None
            if not bounded:
                return None
        if isinstance(loop, ast.While) and not bounded and not stack:
            # no bound: a list only appended to, also by a nested loop, counted then filled
            names = {n for n in names if nested_appends_only(loop, n)}
        if names:
            loop._deploy_row_lists = True  # WhileToLoop passes the bound (the lists' room) on
            loop._deploy_row_appends = {n: appends_per_iteration(loop, n) for n in sorted(names)}
            loop._deploy_row_growing = frozenset(n for n in names if only_grows(loop, n))
            if stack:  # a work stack: the test asks for rows in the list (work_stacks.py)
                loop._deploy_work_stack = True
                loop.test = _StackTest(stack).visit(loop.test)
                ast.fix_missing_locations(loop.test)
            transformer = _Appends(names, ctx)
            body = [transformer.visit(stmt) for stmt in loop.body]
            loop.body = [s for stmt in body for s in (stmt if isinstance(stmt, list) else [stmt])]
            for stmt in loop.body:
                ast.fix_missing_locations(stmt)
        return None


class _StackTest(ast.NodeTransformer):
    """``while stack`` -> ``while list_truth(stack)`` (a RowList's count > 0)."""

    def __init__(self, stack: str):
        self.stack = stack

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.stack and isinstance(node.ctx, ast.Load):
            return ast.copy_location(call(rt("list_truth"), node), node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        return node if _len_of(node) == self.stack else self.generic_visit(node)


def _lists_outside(func: ast.FunctionDef, loop: ast.For | ast.While) -> set[str]:
    """Names given a list display outside ``loop`` (`kept = []`, `peaks, rejected = [], []`), also
    in an enclosing loop's body before it (``cur = [prev[0] + 1]``, a DP row each outer iteration
    builds in an inner loop): such a list is the enclosing iteration's own, carried by ``loop``."""
    in_loops = {id(n) for n in walk(loop.body)}
    lists = set()
    for node in walk(func.body):
        if not isinstance(node, ast.Assign) or id(node) in in_loops:
            continue
        for target in node.targets:
            pairs = [(target, node.value)]
            if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                pairs = list(zip(target.elts, node.value.elts))
            lists.update(t.id for t, v in pairs if isinstance(t, ast.Name) and _new_list(v))
    return lists


def _new_list(value: ast.AST) -> bool:
    """A list display or comprehension, or ``list(xs)`` (a copy: ``list(x[:w])``, a window's
    first entries)."""
    if isinstance(value, (ast.List, ast.ListComp)):
        return True
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "list"
        and len(value.args) == 1
        and not value.keywords
    )
