"""ReturnsInLoopsToBreaks: a `return` inside a loop that builds a list, or inside a `while` or
`for ... in range(...)` loop, becomes a `break` on a flag, and the `return` itself moves after the
loop, where it runs on exactly the values it would have seen (a `break` changes nothing on its way
out). The loop then only appends up to a `break`, which the buffered loops convert; guarding the
appends by a "returned" flag instead (what ReturnsInLoopsToFlags does for other loops, such as
early exits from ModuleList loops) would make them conditional mutations, and a result variable
carried by a graph loop would have no value before the `return`.

    scores = []                                       scores = []
    for i in range(x.shape[0]):                       _deploy_exit_1 = False
        scores.append(f(x[i]))                        for i in range(x.shape[0]):
        if bad > 2:                            ->         scores.append(f(x[i]))
            return flag, torch.stack(scores)              if bad > 2:
    return ok, torch.stack(scores)                            _deploy_exit_1 = True
                                                              break
                                                      if _deploy_exit_1:
                                                          return flag, torch.stack(scores)
                                                      return ok, torch.stack(scores)

A `return` in a nested loop leaves each enclosing loop in turn (the flag is tested after the inner
loop). The loop's own variable, when the returned expression reads it, is copied at the `return`:
a converted loop may advance its counter before it stops. Plain assignments right before the
`return` in its block (``plan = torch.stack(stops) if stops else empty``) only feed it, since
nothing else runs after them: they move after the loop with it, so a list the loop appends to is
not read inside the loop.
"""

from __future__ import annotations

import ast
import copy

from deploy.rewriters.analysis import assigned_names, has_node
from deploy.rewriters.passes.base import Context, Pass, call, map_blocks, name, rt
from deploy.rewriters.passes.continues import append_target, paths_through

_LOOPS = (ast.For, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_MUTATORS = {"append", "extend", "insert"}


def _builds_list(loop: ast.stmt) -> bool:
    return any(
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATORS
        for node in _walk(loop.body)
    )


def _counted(loop: ast.stmt) -> bool:
    """A `while`, a `for ... in range(...)` or a loop over a named sequence (`for j in order`, a
    list of positions built before it): a graph loop when its bound or test is a tensor, which can
    stop at a `break` (a result variable carried instead would have no value before it)."""
    return isinstance(loop, ast.While) or bool(_counter(loop) or _named_item(loop))


def _named_item(loop: ast.stmt) -> set[str]:
    """The variable of a `for name in seq` loop over a named sequence (a converted one advances it
    through the sequence's positions, like a counter)."""
    if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Name):
        return {loop.target.id}
    return set()


def _walk(stmts: list[ast.stmt]):
    todo = list(stmts)
    while todo:
        node = todo.pop()
        yield node
        todo.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, _SCOPES))


def _ends_only_by_return(loop: ast.stmt) -> bool:
    """`while True:` with no `break` or `else` of its own: it ends at one of its `return`s only."""
    if not isinstance(loop, ast.While) or loop.orelse:
        return False
    if not (isinstance(loop.test, ast.Constant) and loop.test.value is True):
        return False
    todo = list(loop.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Break):
            return False
        if not isinstance(node, (*_LOOPS, *_SCOPES)):
            todo.extend(ast.iter_child_nodes(node))
    return True


def _marked_loops(func: ast.FunctionDef) -> set[int]:
    """ids of the loops to rewrite: every loop inside an outermost loop that has a `return` and
    builds a list."""
    marked: set[int] = set()

    def visit(stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            if isinstance(stmt, _SCOPES):
                continue
            if isinstance(stmt, _LOOPS):
                if has_node([stmt], (ast.Return,)) and (_builds_list(stmt) or _counted(stmt)):
                    marked.update(id(n) for n in _walk([stmt]) if isinstance(n, _LOOPS))
                continue
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.stmt):
                    visit([child])
                elif isinstance(child, ast.excepthandler):
                    visit(child.body)
            for field in ("body", "orelse", "finalbody"):
                block = getattr(stmt, field, None)
                if isinstance(block, list):
                    visit(block)

    visit(func.body)
    return marked


def _counter(loop: ast.stmt) -> set[str]:
    """The counter of a `for name in range(...)` loop (a converted loop may advance it before it
    stops); other loops stay Python or have no variable of their own."""
    if (
        isinstance(loop, ast.For)
        and isinstance(loop.target, ast.Name)
        and isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Name)
        and loop.iter.func.id == "range"
    ):
        return {loop.target.id}
    return set()


def _filled_lists(loop: ast.stmt, exits: list, defined: set[str]) -> list[str]:
    """The lists a `for ... in range(...)` loop of the function's own block appends to once on
    every path that does not `return`, which no `return` reads and which have a value before the
    loop: where no `return` ran, each holds one more value per iteration (full_lists.py). The
    range's bounds are read again after the loop, so only bounds the loop leaves unchanged."""
    if not (_counter(loop) and defined) or loop.orelse or loop.iter.keywords:
        return []
    changed = assigned_names(loop.body) | _counter(loop)
    if not 1 <= len(loop.iter.args) <= 3 or not all(_stable(a, changed) for a in loop.iter.args):
        return []
    read = {n.id for _, ret, moved in exits for n in _walk([*moved, ret]) if isinstance(n, ast.Name)}
    targets = {append_target(n) for n in _walk(loop.body) if isinstance(n, ast.stmt)} - {None}
    filled = []
    for target in sorted(targets & defined - read):
        paths = paths_through(loop.body, target, exits=True)
        if not paths or all(end != "exit" for _, end in paths):
            continue
        if all(end == "exit" or (n == 1 and end != "break") for n, end in paths):
            filled.append(target)
    return filled


_SIZE_CALLS = {"len", "min", "max", "size"}


def _stable(bound: ast.expr, changed: set[str]) -> bool:
    """A range bound that reads the same after the loop: no name the loop assigns, no call but sizes
    (``int(t.item())`` read twice would be two data-dependent values)."""
    for node in ast.walk(bound):
        if isinstance(node, ast.Name) and node.id in changed:
            return False
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called not in _SIZE_CALLS:
                return False
    return True


def _feeding(block: list[ast.stmt]) -> list[ast.stmt]:
    """The plain assignments ending ``block`` (right before a `return`): names assigned there are
    read by nothing but each other and the `return`, so they can run after the loop instead."""
    moved: list[ast.stmt] = []
    for stmt in reversed(block):
        if _pads_a_list(stmt):
            moved.insert(0, stmt)
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else []
        leaves = [
            leaf
            for t in targets
            for leaf in ast.walk(t)
            if not isinstance(leaf, (ast.Tuple, ast.expr_context))
        ]
        if not targets or not all(isinstance(leaf, ast.Name) for leaf in leaves):
            break
        if has_node([stmt], (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr, ast.Lambda)):
            break
        if any(
            isinstance(n, ast.Call) and getattr(n.func, "attr", None) in _MUTATORS for n in ast.walk(stmt)
        ):
            break
        moved.insert(0, stmt)
    # a name read before it is reassigned there (`y = h(x); x = k(y)`) would need its value at the
    # `return` and after the loop at once: only the assignments after the last such one move
    while moved:
        reads, made = _outside_reads(moved)
        if not reads & made:
            break
        moved.pop(0)
    return moved


def _pads_a_list(stmt: ast.stmt) -> bool:
    """``while len(counts) < k: counts.append(zeros)`` right before a `return`: a loop that only
    appends (no `break`, `return` or assignment), moved after the loop with the `return` like a
    plain assignment; inside it, the branch it ran in would leave the list longer than the other."""
    if not isinstance(stmt, ast.While) or stmt.orelse:
        return False
    body = list(_walk(stmt.body))
    if any(isinstance(n, (ast.Break, ast.Continue, ast.Return, *_SCOPES)) for n in body):
        return False
    calls = [n for n in stmt.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    return len(calls) == len(stmt.body) and all(
        getattr(c.value.func, "attr", None) in _MUTATORS for c in calls
    )


def _outside_reads(stmts: list[ast.stmt]) -> tuple[set[str], set[str]]:
    """The names ``stmts`` read before assigning them themselves, and the names they assign."""
    reads: set[str] = set()
    made: set[str] = set()
    for stmt in stmts:
        reads |= {
            n.id for n in _walk([stmt]) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        } - made
        made |= assigned_names([stmt])
    return reads, made


class _Capture(ast.NodeTransformer):
    def __init__(self, renames: dict[str, str]):
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.renames:
            return ast.copy_location(ast.Name(self.renames[node.id], ast.Load()), node)
        return node


class ReturnsInLoopsToBreaks(Pass):
    """`return` in a list-building loop -> flag + `break`, the `return` after the loop (see module
    docstring)."""

    name = "returns-in-loops-to-breaks"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        marked = _marked_loops(func)
        if not marked:
            return
        captures: list[str] = []
        # the names each loop of the function's own block may read as lists it fills (full_lists.py)
        earlier = {
            id(s): assigned_names(func.body[:i]) for i, s in enumerate(func.body) if isinstance(s, ast.For)
        }
        map_blocks(func, lambda stmt: self.rewrite(stmt, marked, ctx, captures, earlier))
        # a copy of a counter has a value before every loop that carries it (a counter is an int)
        first = func.body[0]
        inits = [ast.copy_location(ast.Assign([name(c, True)], ast.Constant(0)), first) for c in captures]
        func.body = [*map(ast.fix_missing_locations, inits), *func.body]

    def rewrite(
        self, loop: ast.stmt, marked: set[int], ctx: Context, captures: list[str], earlier: dict
    ) -> list[ast.stmt] | None:
        if id(loop) not in marked or not has_node(loop.body, (ast.Return,)):
            return None
        exits: list[tuple[str, ast.Return, list[ast.stmt]]] = []
        endless = _ends_only_by_return(loop)
        counters = _counter(loop) | _named_item(loop)
        locals_ = assigned_names(loop.body) - counters
        loop.body = self._replace(loop.body, (counters, locals_), exits, ctx, captures)
        before = [ast.Assign([name(flag, True)], ast.Constant(False)) for flag, _, _ in exits]
        after = []
        for i, (flag, ret, moved) in enumerate(exits):
            if endless and i == len(exits) - 1:  # the loop ended at a `return`, and not at another one
                after.extend(ast.copy_location(stmt, ret) for stmt in [*moved, ret])
                break
            test = ast.If(test=name(flag), body=[*moved, ret], orelse=[])
            test._deploy_what = "the `return` inside the loop (the loop stopped there)"
            after.append(ast.copy_location(test, ret))
        for target in _filled_lists(loop, exits, earlier.get(id(loop), set())):
            length = ctx.fresh("before")
            before.append(ast.Assign([name(length, True)], call(rt("len_"), name(target))))
            bounds = [copy.deepcopy(a) for a in loop.iter.args]
            full = call(rt("full_length"), name(target), name(length), *bounds)
            after.append(ast.copy_location(ast.Assign([name(target, True)], full), loop))
        for stmt in before:
            ast.copy_location(stmt, loop)
        out = [*before, loop, *after]
        for stmt in out:
            ast.fix_missing_locations(stmt)
        return out

    def _replace(
        self, stmts, targets: tuple[set[str], set[str]], exits: list, ctx: Context, captures: list[str]
    ) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        counters, locals_ = targets
        for stmt in stmts:
            if isinstance(stmt, ast.Return):
                flag = ctx.fresh("exit")
                value = stmt.value
                moved = _feeding(out)
                del out[len(out) - len(moved) :]
                read, made = _outside_reads(moved)
                read |= {n.id for n in _walk([stmt]) if isinstance(n, ast.Name)} - made
                # an inner loop's copy of its counter (a capture) is an int before every loop too
                counted = counters | (set(captures) & locals_)
                renames = {t: ctx.fresh("at") for t in sorted(counted & read)}
                captures.extend(renames.values())
                # values the body assigns (`lo, hi = table[r]` before `return f(lo, hi)`): read after
                # the loop only where the `return` ran, so a copy with no value before the loop is a
                # result slot (a placeholder on the paths that never set it), not a local one path lacks
                renames.update({t: ctx.fresh("last") for t in sorted((locals_ - counted) & read)})
                for target, copy in renames.items():
                    out.append(ast.copy_location(ast.Assign([name(copy, True)], name(target)), stmt))
                if renames:
                    value = _Capture(renames).visit(value) if value else value
                    moved = [_Capture(renames).visit(m) for m in moved]
                exits.append((flag, ast.copy_location(ast.Return(value), stmt), moved))
                out.append(ast.copy_location(ast.Assign([name(flag, True)], ast.Constant(True)), stmt))
                stop = ast.copy_location(ast.Break(), stmt)
                stop._deploy_exit = True  # the path ends at a `return` (paths_through's "exit")
                out.append(stop)
                return out  # the rest of the block is unreachable
            if not isinstance(stmt, (*_LOOPS, *_SCOPES)) and has_node([stmt], (ast.Return,)):
                for field in ("body", "orelse", "finalbody"):
                    block = getattr(stmt, field, None)
                    if isinstance(block, list):
                        setattr(stmt, field, self._replace(block, targets, exits, ctx, captures))
                for handler in getattr(stmt, "handlers", []):
                    handler.body = self._replace(handler.body, targets, exits, ctx, captures)
            out.append(stmt)
        return out
