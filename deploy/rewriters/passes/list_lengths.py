"""ListLengthCounters: ``len(xs)`` read inside the loop that appends to ``xs`` becomes a counter the
appends advance, and ``xs[-1]`` a variable holding the last appended value, so the loop reads no
list (a converted loop collects its appended values as loop outputs, and cannot also read them
back):

    chars = []                                 chars = []
    for t in range(n):                         _deploy_len_1 = len(chars)
        ...                                    for t in range(n):
        chars.append(k)               ->           ...
        if len(chars) == MAX_LEN:                  chars.append(k)
            break                                  _deploy_len_1 = _deploy_len_1 + 1
                                                   if _deploy_len_1 == MAX_LEN:
                                                       break

Only when the loop changes the list by ``append`` alone and reads it only through ``len`` and
``[-1]``. The last value starts as ``xs[-1] if len(xs) > 0 else None`` (an empty list read at
``[-1]`` fails eagerly too).
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import BLOCK_FIELDS, Context, Pass, copy_expr, map_blocks, name, rt

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _appends_to(stmt: ast.stmt) -> str | None:
    value = stmt.value if isinstance(stmt, ast.Expr) else None
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "append"
        and isinstance(value.func.value, ast.Name)
    ):
        return value.func.value.id
    return None


def _is_len_of(node: ast.AST, target: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == target
    )


def _is_last_of(node: ast.AST, target: str) -> bool:
    """``target[-1]`` read."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id == target
        and isinstance(node.slice, ast.UnaryOp)
        and isinstance(node.slice.op, ast.USub)
        and isinstance(node.slice.operand, ast.Constant)
        and node.slice.operand.value == 1
    )


def _stored_last(node: ast.AST) -> str | None:
    """The list a ``name[-1] = value`` statement stores into."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
        return None
    stored = node.targets[0]
    if isinstance(stored, ast.Subscript) and isinstance(stored.value, ast.Name):
        index = stored.slice
        minus_one = (
            isinstance(index, ast.UnaryOp)
            and isinstance(index.op, ast.USub)
            and isinstance(index.operand, ast.Constant)
            and index.operand.value == 1
        )
        return stored.value.id if minus_one else None
    return None


def _is_last_store(node: ast.AST, target: str) -> bool:
    """``target[-1] = value``."""
    return _stored_last(node) == target


def _only_appended_and_measured(loop: ast.stmt, target: str) -> bool:
    """Every use of ``target`` in the loop is ``target.append(...)``, ``len(target)``, ``target[-1]``
    or ``target[-1] = value``."""
    allowed: set[int] = set()
    for node in ast.walk(loop):
        if _is_last_store(node, target):
            allowed.add(id(node.targets[0].value))
        elif _is_last_of(node, target):
            allowed.add(id(node.value))
        elif _is_len_of(node, target):
            allowed.add(id(node.args[0]))
        elif isinstance(node, ast.Expr) and _appends_to(node) == target:
            allowed.add(id(node.value.func.value))
    uses = [n for n in ast.walk(loop) if isinstance(n, ast.Name) and n.id == target]
    return bool(uses) and all(id(n) in allowed for n in uses)


class _Counting(ast.NodeTransformer):
    def __init__(self, target: str, counter: str, last: str):
        self.target, self.counter, self.last = target, counter, last

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(name(self.counter), node) if _is_len_of(node, self.target) else node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(name(self.last), node) if _is_last_of(node, self.target) else node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node


def _count_appends(
    block: list[ast.stmt], target: str, counter: str, last: str | None, deferred: str | bool = ""
) -> list[ast.stmt]:
    out = []
    for stmt in block:
        if deferred and _is_last_store(stmt, target):  # `xs[-1] = v`: the pending entry changes
            out.append(ast.copy_location(ast.Assign([name(last, True)], stmt.value), stmt))
            continue
        if deferred and _appends_to(stmt) == target:  # the pending entry is out; `v` is pending
            pending = _pending_out(target, counter, last, deferred)
            value = ast.Assign([name(last, True)], stmt.value.args[0])
            step = ast.Assign([name(counter, True)], ast.BinOp(name(counter), ast.Add(), ast.Constant(1)))
            for new in (pending, value, step):
                out.append(ast.fix_missing_locations(ast.copy_location(new, stmt)))
            continue
        if _appends_to(stmt) == target:
            if last is not None:  # the value first, appended from the variable (evaluated once)
                value = ast.Assign([name(last, True)], stmt.value.args[0])
                out.append(ast.fix_missing_locations(ast.copy_location(value, stmt)))
                stmt.value.args[0] = name(last)
            out.append(stmt)
            step = ast.Assign([name(counter, True)], ast.BinOp(name(counter), ast.Add(), ast.Constant(1)))
            out.append(ast.fix_missing_locations(ast.copy_location(step, stmt)))
            continue
        out.append(stmt)
        if not isinstance(stmt, _SCOPES):
            for field in BLOCK_FIELDS:
                inner = getattr(stmt, field, None)
                if isinstance(inner, list):
                    setattr(stmt, field, _count_appends(inner, target, counter, last, deferred))
    return out


def _pending_out(target: str, counter: str, last: str, nonempty: str | bool) -> ast.stmt:
    """``if nonempty or counter > 0: target.append(last)``: ``nonempty`` says the list had entries
    before the loop (a Python bool there), so a graph loop's counter, which only grows, need not be
    tested, and every path appends (the list keeps a size the graph knows). A list the code before
    the loop fills (``nonempty`` True: ``layers = [temps[0]]``) appends unguarded: no path of the
    loop skips the append, so no flag marks which iterations appended (passes/continues.py)."""
    append = ast.Expr(ast.Call(ast.Attribute(name(target), "append", ast.Load()), [name(last)], []))
    if nonempty is True:
        return append
    grown = ast.Compare(name(counter), [ast.Gt()], [ast.Constant(0)])
    return ast.If(ast.BoolOp(ast.Or(), [name(nonempty), grown]), [append], [])


def _mark_filled_lists(func: ast.FunctionDef) -> None:
    """Each loop gets ``_deploy_filled``: the lists a statement before it in its block sets to a
    non-empty list literal (``layers = [temps[0]]``), with no statement between them naming the list."""
    for node in ast.walk(func):
        for field in BLOCK_FIELDS:
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            filled: set[str] = set()
            for stmt in block:
                if isinstance(stmt, (ast.For, ast.While)):
                    stmt._deploy_filled = set(filled)
                named = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)}
                filled -= named
                literal = isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                if literal and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.List):
                    items = stmt.value.elts
                    if items and not any(isinstance(e, ast.Starred) for e in items):
                        filled.add(stmt.targets[0].id)


class ListLengthCounters(Pass):
    """`len(xs)` inside the loop appending to `xs` -> a counter (see module docstring)."""

    name = "list-length-counters"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        _mark_filled_lists(func)
        map_blocks(
            func, lambda stmt: self.rewrite(stmt, ctx) if isinstance(stmt, (ast.For, ast.While)) else None
        )

    def rewrite(self, loop: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
        read = {
            n.args[0].id
            for n in ast.walk(loop)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len"
            and len(n.args) == 1 and isinstance(n.args[0], ast.Name)
        } | {n.value.id for n in ast.walk(loop) if isinstance(n, ast.Subscript) and _is_last_of(n, getattr(n.value, "id", ""))}  # fmt: skip
        read |= {_stored_last(n) for n in ast.walk(loop)} - {None}
        appended = {_appends_to(s) for s in ast.walk(loop) if isinstance(s, ast.Expr)}
        targets = [t for t in sorted(read & appended) if _only_appended_and_measured(loop, t)]
        if not targets:
            return None
        before, after = [], []
        for target in targets:
            counter = ctx.fresh("len")
            deferred = ctx.fresh("nonempty") if any(_is_last_store(n, target) for n in ast.walk(loop)) else ""
            reads_last = deferred or any(_is_last_of(n, target) for n in ast.walk(loop))
            last = ctx.fresh("last") if reads_last else None
            counting = _Counting(target, counter, last or "")
            loop.body = [counting.visit(s) for s in loop.body]
            if isinstance(loop, ast.While):
                loop.test = counting.visit(loop.test)
            filled = deferred and target in getattr(loop, "_deploy_filled", ())
            loop.body = _count_appends(loop.body, target, counter, last, True if filled else deferred)
            size = ast.Call(name("len"), [name(target)], [])
            before.append(ast.Assign([name(counter, True)], size))
            if deferred:  # the last entry stays pending (out of the list) until the next append
                nonempty = ast.Compare(copy_expr(size), [ast.Gt()], [ast.Constant(0)])
                before.append(ast.Assign([name(deferred, True)], nonempty))
                taken = ast.Call(rt("take_last"), [name(target)], [])
                before.append(ast.Assign([name(last, True)], taken))
                after.append(_pending_out(target, counter, last, True if filled else deferred))
            elif last is not None:
                first = ast.IfExp(
                    ast.Compare(size, [ast.Gt()], [ast.Constant(0)]),
                    ast.Subscript(name(target), ast.UnaryOp(ast.USub(), ast.Constant(1)), ast.Load()),
                    ast.Constant(None),
                )
                before.append(ast.Assign([name(last, True)], first))
        for stmt in (*before, *after):
            ast.copy_location(stmt, loop)
            ast.fix_missing_locations(stmt)
        return [*before, loop, *after]
