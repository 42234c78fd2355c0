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
from deploy.rewriters.passes.continues import paths_through
from deploy.rewriters.passes.list_pops import hoist_pop, hoistable_pops, popped_list

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _walk(nodes):
    todo = list(nodes)
    while todo:
        node = todo.pop()
        yield node
        todo.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES))


def _append_of(node: ast.AST) -> str | None:
    """``xs.append(v)`` as a statement: ``xs``."""
    if (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "append"
        and isinstance(node.value.func.value, ast.Name)
        and len(node.value.args) == 1
        and not node.value.keywords
    ):
        return node.value.func.value.id
    return None


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
    return any(n is node for n in _walk(loop.body))


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
    pops = [n for n in _walk(loop.body) if popped_list(n) == target]
    whole = [
        s.value
        for s in _walk(loop.body)
        if isinstance(s, (ast.Assign, ast.Expr)) and popped_list(s.value) == target
    ]
    if not pops or len(pops) != len(whole):
        return None
    return target


def _candidates(loop: ast.For | ast.While, before: set[str]) -> set[str]:
    """Lists appended in the loop body and read there otherwise, created before the loop."""
    appended, receivers, other_reads, created_inside = set(), set(), set(), set()
    hoisted = hoistable_pops(_walk(loop.body))  # `x = xs.pop()`, `run = xs.pop() + 1` (list_pops.py)
    for node in _walk(loop.body):
        target = _append_of(node)
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
    for node in _walk([*loop.body, *tests]):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in receivers:
            other_reads.add(node.id)
        if isinstance(node, (ast.For, ast.While)):  # appended by a nested loop too: carried by both
            nested = {t for t in map(_append_of, _walk(node.body)) if t is not None}
            own = {_append_of(n) for n in _walk(loop.body) if not _inside(n, node)}
            other_reads.update(nested & own)
            # a search loop directly in the body appending what it found (`if hit: xs.append(v);
            # break`): at most one row per iteration, so the outer loop carries the list as rows too
            # (its appends reassign the list, which a graph loop can only carry as a RowList)
            if _directly_in(node, loop):
                other_reads.update(t for t in nested if _appends_once(node, t))
    return (appended & other_reads & before) - created_inside


class _Appends(ast.NodeTransformer):
    def __init__(self, names: set[str], ctx: Context):
        self.names, self.ctx = names, ctx

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        hoisted = hoist_pop(node, self.names, self.ctx, self.visit)
        if hoisted is not None:
            return hoisted
        target = _append_of(node)
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
            names = {n for n in names if _nested_appends_only(loop, n)}
        if names:
            loop._deploy_row_lists = True  # WhileToLoop passes the bound (the lists' room) on
            loop._deploy_row_appends = {n: _appends_per_iteration(loop, n) for n in sorted(names)}
            loop._deploy_row_growing = frozenset(n for n in names if _only_grows(loop, n))
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


def _only_grows(loop: ast.For | ast.While, target: str) -> bool:
    """The loop body only appends to ``target`` and reads it: no ``target = ...`` (a reset), no
    ``pop``/``remove``/``clear``/``del``, so the list keeps the rows it had before the loop."""
    for node in _walk(loop.body):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            if any(leaf.id == target for t in targets for leaf in ast.walk(t) if isinstance(leaf, ast.Name)):
                return False
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == target
            and node.func.attr != "append"
        ):
            return False
    return True


def _nested_appends_only(loop: ast.While, target: str) -> bool:
    """Whether the loop only appends to ``target`` (no other read of it), a loop nested in its body
    too: without a bound, the loop then runs twice, counting the rows, then filling them
    (row_lists.counted_while_rows). A list read in the loop would read other rows while counting."""
    receivers = {id(n.value.func.value) for n in _walk(loop.body) if _append_of(n) == target}
    reads = [
        n
        for n in _walk([*loop.body, loop.test])
        if isinstance(n, ast.Name) and n.id == target and id(n) not in receivers
    ]
    nested = any(
        isinstance(n, (ast.For, ast.While)) and any(_append_of(m) == target for m in _walk(n.body))
        for n in _walk(loop.body)
    )
    return nested and not reads


def _appends_per_iteration(loop: ast.For | ast.While, target: str) -> tuple[int | None, bool]:
    """How many appends to ``target`` the loop body holds (None: one in a nested loop), and whether
    every iteration makes all of them: each is a statement of the body itself and nothing ends an
    iteration early (`break`, `continue`, `return`) or empties the list."""
    own, nested, exact = 0, False, True
    todo = [(stmt, True) for stmt in loop.body]
    while todo:
        node, top = todo.pop()
        if isinstance(node, (ast.Break, ast.Continue, ast.Return)):
            exact = False
        if _append_of(node) == target:
            own += 1
            exact = exact and top
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == target for t in node.targets
        ):
            exact = False  # `kept = []`: a reset
        if isinstance(node, (ast.For, ast.While)):
            if _appends_once(node, target):
                own, exact = own + 1, False  # a search loop: at most one append per iteration here
            else:
                nested = nested or any(_append_of(n) == target for n in _walk(node.body))
            continue  # its `break`s are its own
        todo.extend((c, False) for c in ast.iter_child_nodes(node) if not isinstance(c, _SCOPES))
    if not exact and not nested:
        # every path through the body makes the same number of appends (`if j < lo: row.append(BIG);
        # continue` then `row.append(best)`, or one in each branch of an `if`): exact, with that many
        # (the buffer then holds a row per append, and the list after the loop keeps a size the
        # enclosing loop can carry: `prev = torch.stack(row)` of M + 1 rows, not a data-dependent count)
        paths = paths_through(loop.body, target, reads=True) or set()
        counts = {n for n, _ in paths}
        if len(counts) == 1 and all(end != "break" for _, end in paths) and min(counts) > 0:
            return min(counts), True
    return (None if nested else own), exact and not nested


def _lists_outside(func: ast.FunctionDef, loop: ast.For | ast.While) -> set[str]:
    """Names given a list display outside ``loop`` (`kept = []`, `peaks, rejected = [], []`), also
    in an enclosing loop's body before it (``cur = [prev[0] + 1]``, a DP row each outer iteration
    builds in an inner loop): such a list is the enclosing iteration's own, carried by ``loop``."""
    in_loops = {id(n) for n in _walk(loop.body)}
    lists = set()
    for node in _walk(func.body):
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


def _directly_in(inner: ast.For | ast.While, loop: ast.For | ast.While) -> bool:
    """``inner`` is in ``loop``'s body but in no loop between them (it runs at most once per
    iteration of ``loop``, as the branches around it allow)."""
    todo = list(loop.body)
    while todo:
        node = todo.pop()
        if node is inner:
            return True
        if not isinstance(node, (ast.For, ast.While, *_SCOPES)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def _appends_once(loop: ast.For | ast.While, target: str) -> bool:
    """Every run of ``loop`` appends to ``target`` at most once: it does append, no loop nested in
    it does, and each append is followed in its own block by plain statements and then the
    ``break`` that ends ``loop`` (``if end[e] > 0: spans.append(...); break``)."""
    found = False
    todo = [*loop.body, *loop.orelse]
    blocks = []
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.For, ast.While)):
            if any(_append_of(n) == target for n in _walk([node])):
                return False
            continue
        if isinstance(node, _SCOPES):
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                blocks.append(block)
        todo.extend(ast.iter_child_nodes(node))
    blocks.append(loop.body)
    for block in blocks:
        for i, stmt in enumerate(block):
            if _append_of(stmt) != target:
                continue
            rest = block[i + 1 :]
            plain = all(
                isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass))
                and _append_of(s) is None
                for s in rest[:-1]
            )
            if not rest or not isinstance(rest[-1], ast.Break) or not plain:
                return False
            found = True
    return found and not any(_append_of(s) == target for s in loop.orelse)
