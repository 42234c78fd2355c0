"""The shapes of list comprehensions the call-tree pass (calls.py) routes through the runtime:
``[v for _ in range(n)]`` (repeat_count), ``[int(c) for c in xs]`` (entry_cast), ``[t for t in xs
if test]`` (kept_entries), ``[f(c) for c in xs]`` and ``[f(a, b) for a, b in zip(xs, ys)]``
(mapped_sources)."""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import rt

# the runtime calls whose lambdas are a comprehension's or generator's entries and tests
ENTRY_RUNNERS = ("mapped_entries", "kept_entries", "all_of", "any_of")
TEST_RUNNERS = ENTRY_RUNNERS[1:]  # (their lambdas are tests)


def repeat_count(node: ast.ListComp) -> ast.expr | None:
    """``n`` of ``[value for _ in range(n)]``, a value that does not read the loop's name."""
    if len(node.generators) != 1:
        return None
    loop = node.generators[0]
    call = loop.iter
    if loop.ifs or loop.is_async or not isinstance(loop.target, ast.Name):
        return None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "range"):
        return None
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Constant):
        return None
    if any(isinstance(n, ast.Name) and n.id == loop.target.id for n in ast.walk(node.elt)):
        return None
    return call.args[0]


def entry_cast(node: ast.ListComp) -> str | None:
    """``int`` / ``float`` / ``item`` / ``""`` for ``[int(c) for c in xs]`` / ``float(c)`` /
    ``c.item()`` / ``c`` (one loop, no condition); None for any other comprehension."""
    if len(node.generators) != 1:
        return None
    loop = node.generators[0]
    if loop.ifs or loop.is_async or not isinstance(loop.target, ast.Name):
        return None  # (a condition: kept_entries)
    var, elt = loop.target.id, node.elt
    if isinstance(elt, ast.Name) and elt.id == var:
        return ""
    func = elt.func if isinstance(elt, ast.Call) and not elt.keywords else None
    if isinstance(func, ast.Attribute) and func.attr == "item" and not elt.args:
        return "item" if isinstance(func.value, ast.Name) and func.value.id == var else None
    if isinstance(func, ast.Name) and func.id in ("int", "float") and len(elt.args) == 1:
        arg = elt.args[0]
        if isinstance(arg, ast.Name) and arg.id == var:
            return func.id
    return None


def mapped_sources(node: ast.ListComp) -> tuple[list[str], list[ast.expr]] | None:
    """The names and the sources of ``[f(c) for c in xs]`` (``[c]``, ``[xs]``) or of ``[f(a, b) for
    a, b in zip(xs, ys)]`` (``[a, b]``, ``[xs, ys]``), an entry that reads a name and binds none of
    its own; None for any other comprehension."""
    if len(node.generators) != 1:
        return None
    loop = node.generators[0]
    if loop.ifs or loop.is_async:
        return None
    if isinstance(loop.target, ast.Name):
        names, sources = [loop.target.id], [loop.iter]
    else:
        zipped = loop.iter
        if not (isinstance(loop.target, ast.Tuple) and isinstance(zipped, ast.Call)):
            return None
        if not (isinstance(zipped.func, ast.Name) and zipped.func.id == "zip") or zipped.keywords:
            return None
        names = [t.id for t in loop.target.elts if isinstance(t, ast.Name)]
        sources = list(zipped.args)
        if len(names) != len(loop.target.elts) or len(set(names)) != len(names) or len(sources) != len(names):
            return None
        if any(isinstance(a, ast.Starred) for a in sources):
            return None
    nodes = list(ast.walk(node.elt))
    if any(isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await, ast.Lambda)) for n in nodes):
        return None
    return (names, sources) if any(isinstance(n, ast.Name) and n.id in names for n in nodes) else None


def kept_entries(node: ast.ListComp) -> bool:
    """``[t for t in xs if test]`` (the values themselves) or ``[f(s) for s in xs if test]`` (an
    entry computed from each value): one loop over a name, one condition."""
    if len(node.generators) != 1:
        return False
    loop = node.generators[0]
    return len(loop.ifs) == 1 and not loop.is_async and isinstance(loop.target, ast.Name)


def computed_entry(node: ast.ListComp) -> bool:
    """Whether a kept_entries comprehension's entry is more than its loop's name."""
    loop = node.generators[0]
    return not (isinstance(node.elt, ast.Name) and node.elt.id == loop.target.id)


def generator_test(node: ast.Call) -> ast.Call | None:
    """``all(test for o in xs if keep)`` / ``any(...)``: one loop over a name, as
    ``_deploy_rt.all_of(lambda o: test, xs, lambda o: keep)`` (generator_tests.py; None for no
    ``if``), else None."""
    func = node.func
    if not (
        isinstance(func, ast.Name)
        and func.id in ("all", "any")
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.GeneratorExp)
        and len(node.args[0].generators) == 1
    ):
        return None
    loop = node.args[0].generators[0]
    if loop.is_async or not isinstance(loop.target, ast.Name):
        return None

    def over_target(body: ast.expr) -> ast.Lambda:
        return ast.Lambda(ast.arguments([], [ast.arg(loop.target.id)], None, [], [], None, []), body)

    if not loop.ifs:
        keep: ast.expr = ast.Constant(None)
    else:
        keep = over_target(loop.ifs[0] if len(loop.ifs) == 1 else ast.BoolOp(ast.And(), list(loop.ifs)))
    return ast.Call(rt(f"{func.id}_of"), [over_target(node.args[0].elt), loop.iter, keep], [])
