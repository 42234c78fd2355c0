"""DeletionsToStores: ``del xs[i]`` (one target, ``xs`` a plain name, ``i`` no slice) becomes
``xs = _deploy_rt.delitem(xs, i)``, an assignment the control-flow passes see:

    while i < len(stops) - 1:                  while i < len(stops) - 1:
        if near(stops[i], stops[i + 1]):   ->      if near(stops[i], stops[i + 1]):
            stops[i] = merged(...)                     stops[i] = merged(...)
            del stops[i + 1]                           stops = _deploy_rt.delitem(stops, i + 1)

Left as a statement, the deletion changes ``xs`` in place where no pass sees it: a converted loop
or branch would not carry ``xs``, and a list a graph loop filled (a table of rows) has no item
deletion. Eagerly ``delitem`` deletes in place and returns the same object, as Python's ``del``
does; while exporting it gives the rows without row ``i`` (subscript_stores.py).
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import RUNTIME, Context, Pass, call, map_blocks, name, rt


def _deletion(stmt: ast.stmt) -> list[ast.stmt] | None:
    if not (isinstance(stmt, ast.Delete) and len(stmt.targets) == 1):
        return None
    target = stmt.targets[0]
    if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
        return None
    if any(isinstance(n, ast.Slice) for n in ast.walk(target.slice)):
        return None
    value = call(rt("delitem"), name(target.value.id), target.slice)
    assign = ast.copy_location(ast.Assign([name(target.value.id, True)], value), stmt)
    return [ast.fix_missing_locations(assign)]


def deleted_lists(loop: ast.For | ast.While) -> frozenset[str]:
    """The names a loop body deletes entries of (``xs = _deploy_rt.delitem(xs, i)``), which a graph
    loop carries as rows and a count (row_loops.deleted_rows)."""
    found = set()
    for node in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "delitem"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == RUNTIME
            and node.args
            and isinstance(node.args[0], ast.Name)
        ):
            found.add(node.args[0].id)
    return frozenset(found)


class DeletionsToStores(Pass):
    """``del xs[i]`` -> ``xs = delitem(xs, i)`` (see module docstring)."""

    name = "deletions-to-stores"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, _deletion)
