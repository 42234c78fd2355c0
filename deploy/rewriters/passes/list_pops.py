"""Pops of a list a loop carries as rows (passes/row_lists.py), taken out of the statement that
makes them so the list is reassigned like any other loop variable:

    run = lengths.pop() + 1          ->     lengths, _deploy_popped_1 = _deploy_rt.list_pop(lengths)
                                            run = _deploy_popped_1 + 1

Moving the pop ahead of its statement keeps Python's order only when nothing else in the statement
can see the list: the pop is the statement's only one, the list is named nowhere else in it
(``lengths[-1] = lengths.pop()`` stays as it is), and the pop is not in a part Python may skip or
run later (``and`` / ``or``, ``a if c else b``, a comprehension or lambda). A list popped anywhere
else is left a Python list.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, call, name, rt

_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)
_DEFERRED = (
    ast.BoolOp,
    ast.IfExp,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.Lambda,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
)


def popped_list(node: ast.AST) -> str | None:
    """``xs.pop()`` / ``xs.pop(i)``: ``xs``."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "pop"
        and isinstance(node.func.value, ast.Name)
        and len(node.args) <= 1
        and not node.keywords
    ):
        return node.func.value.id
    return None


def only_pop(stmt: ast.AST) -> ast.Call | None:
    """The one ``.pop(...)`` call a simple statement makes, outside any part Python may skip or run
    later; None when it makes none, several, or that one is in such a part."""
    if not isinstance(stmt, _SIMPLE):
        return None
    pops, todo = [], [(stmt, False)]
    while todo:
        node, deferred = todo.pop()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop":
            pops.append((node, deferred))
        deferred = deferred or isinstance(node, _DEFERRED)
        todo.extend((child, deferred) for child in ast.iter_child_nodes(node))
    return pops[0][0] if len(pops) == 1 and not pops[0][1] else None


def named_once(stmt: ast.AST, identifier: str) -> bool:
    """``identifier`` appears exactly once in ``stmt`` (the popped list, nowhere else)."""
    return sum(1 for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == identifier) == 1


def hoistable_pop(stmt: ast.AST) -> ast.Call | None:
    """The one pop a simple statement makes, when it can run ahead of the statement (see the
    module docstring); None otherwise."""
    pop = only_pop(stmt)
    target = popped_list(pop) if pop is not None else None
    return pop if target is not None and named_once(stmt, target) else None


def hoistable_pops(statements) -> set[int]:
    """The ids of the pop calls in ``statements`` (nodes of a loop body) that can be hoisted."""
    return {id(pop) for pop in map(hoistable_pop, statements) if pop is not None}


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST):
        self.target, self.replacement = target, replacement

    def visit(self, node: ast.AST) -> ast.AST:
        return self.replacement if node is self.target else super().visit(node)


def replaced(stmt: ast.stmt, target: ast.AST, replacement: ast.AST) -> ast.stmt:
    """``stmt`` with the node ``target`` (the pop) replaced by ``replacement``."""
    return _Replace(target, replacement).visit(stmt)


def hoist_pop(stmt: ast.stmt, names: set[str], ctx: Context, visit) -> list[ast.stmt] | None:
    """``stmt`` with its pop of one of ``names`` taken out ahead of it (``visit``: the caller's
    rewrite of the pop's index and of the rest of the statement); None when it makes no such pop."""
    pop = hoistable_pop(stmt)
    if pop is None or popped_list(pop) not in names:
        return None
    target = popped_list(pop)
    temp = ctx.fresh("popped")
    value = call(rt("list_pop"), name(target), *[visit(a) for a in pop.args])
    first = ast.Assign([ast.Tuple([name(target, True), name(temp, True)], ast.Store())], value)
    out = [ast.copy_location(first, stmt)]
    if isinstance(stmt, ast.Expr) and stmt.value is pop:
        return out  # `stack.pop(0)`: the value is dropped
    rest = visit(replaced(stmt, pop, name(temp)))
    return [*out, *(rest if isinstance(rest, list) else [rest])]
