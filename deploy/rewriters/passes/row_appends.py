"""How a loop body appends to a list (passes/row_lists.py): the appends per iteration, whether
every iteration makes them, whether the list only grows, and search loops appending at most once."""

from __future__ import annotations

import ast

from deploy.rewriters.passes.continues import paths_through

SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def walk(nodes):
    todo = list(nodes)
    while todo:
        node = todo.pop()
        yield node
        todo.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, SCOPES))


def append_of(node: ast.AST) -> str | None:
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


def only_grows(loop: ast.For | ast.While, target: str) -> bool:
    """The loop body only appends to ``target`` and reads it: no ``target = ...`` (a reset), no
    ``pop``/``remove``/``clear``/``del``, so the list keeps the rows it had before the loop."""
    for node in walk(loop.body):
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


def nested_appends_only(loop: ast.While, target: str) -> bool:
    """Whether the loop only appends to ``target`` (no other read of it), a loop nested in its body
    too: without a bound, the loop then runs twice, counting the rows, then filling them
    (row_lists.counted_while_rows). A list read in the loop would read other rows while counting."""
    receivers = {id(n.value.func.value) for n in walk(loop.body) if append_of(n) == target}
    reads = [
        n
        for n in walk([*loop.body, loop.test])
        if isinstance(n, ast.Name) and n.id == target and id(n) not in receivers
    ]
    nested = any(
        isinstance(n, (ast.For, ast.While)) and any(append_of(m) == target for m in walk(n.body))
        for n in walk(loop.body)
    )
    return nested and not reads


def appends_per_iteration(loop: ast.For | ast.While, target: str) -> tuple[int | None, bool]:
    """How many appends to ``target`` the loop body holds (None: one in a nested loop), and whether
    every iteration makes all of them: each is a statement of the body itself and nothing ends an
    iteration early (`break`, `continue`, `return`) or empties the list."""
    own, nested, exact = 0, False, True
    todo = [(stmt, True) for stmt in loop.body]
    while todo:
        node, top = todo.pop()
        if isinstance(node, (ast.Break, ast.Continue, ast.Return)):
            exact = False
        if append_of(node) == target:
            own += 1
            exact = exact and top
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == target for t in node.targets
        ):
            exact = False  # `kept = []`: a reset
        if isinstance(node, (ast.For, ast.While)):
            if appends_once(node, target):
                own, exact = own + 1, False  # a search loop: at most one append per iteration here
            else:
                nested = nested or any(append_of(n) == target for n in walk(node.body))
            continue  # its `break`s are its own
        todo.extend((c, False) for c in ast.iter_child_nodes(node) if not isinstance(c, SCOPES))
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


def directly_in(inner: ast.For | ast.While, loop: ast.For | ast.While) -> bool:
    """``inner`` is in ``loop``'s body but in no loop between them (it runs at most once per
    iteration of ``loop``, as the branches around it allow)."""
    todo = list(loop.body)
    while todo:
        node = todo.pop()
        if node is inner:
            return True
        if not isinstance(node, (ast.For, ast.While, *SCOPES)):
            todo.extend(ast.iter_child_nodes(node))
    return False


def appends_once(loop: ast.For | ast.While, target: str) -> bool:
    """Every run of ``loop`` appends to ``target`` at most once: it does append, no loop nested in
    it does, and each append is followed in its own block by plain statements and then the
    ``break`` that ends ``loop`` (``if end[e] > 0: spans.append(...); break``)."""
    found = False
    todo = [*loop.body, *loop.orelse]
    blocks = []
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.For, ast.While)):
            if any(append_of(n) == target for n in walk([node])):
                return False
            continue
        if isinstance(node, SCOPES):
            continue
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                blocks.append(block)
        todo.extend(ast.iter_child_nodes(node))
    blocks.append(loop.body)
    for block in blocks:
        for i, stmt in enumerate(block):
            if append_of(stmt) != target:
                continue
            rest = block[i + 1 :]
            plain = all(
                isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass))
                and append_of(s) is None
                for s in rest[:-1]
            )
            if not rest or not isinstance(rest[-1], ast.Break) or not plain:
                return False
            found = True
    return found and not any(append_of(s) == target for s in loop.orelse)
