"""NestedLoopAppends: a list only an inner range loop appends to, inside an outer range loop or
`while` loop (a draft of up to k tokens per round), is filled a chunk per outer iteration:

    feats = []                                  feats = []
    for i in range(h // t):                     _deploy_chunks_1 = []; _deploy_counts_2 = []
        for j in range(w // t):                 for i in range(h // t):
            if cloudy(i, j):            ->          _deploy_rows_3 = []
                continue                            for j in range(w // t):
            feats.append(enc(i, j))                     ...  _deploy_rows_3.append(enc(i, j))
                                                    _c, _n = _deploy_rt.chunk(_deploy_rows_3, (w // t,), 1)
                                                    _deploy_chunks_1.append(_c); _deploy_counts_2.append(_n)
                                                feats = _deploy_rt.unchunk(feats, _deploy_chunks_1, _deploy_counts_2)

A graph loop carries tensors of one shape, so the outer loop cannot carry the growing list. Each
outer iteration instead hands out the rows its inner loop appended, padded to the most that loop
can append (its trip count times its append statements), and how many there are; after the loop
``unchunk`` keeps those rows in order (nested_lists.py). Eagerly the chunks are the inner lists and
``unchunk`` extends the list with them, the list the user's code appended to.

Only when the outer loop reads the list nowhere else, has no `break`, `continue` or `return` of
its own (the inner loop may), and the inner loop's range does not change in its body.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names, has_node
from deploy.rewriters.passes.base import Context, Pass, call, copy_expr, map_blocks, name, rt
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.continues import append_of, append_target, own_statements


class NestedLoopAppends(Pass):
    """Lists an inner range loop fills inside an outer range or `while` loop -> chunks (see module
    docstring)."""

    name = "nested-loop-appends"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self._rewrite(stmt, ctx) if _outer(stmt) else None)

    def _rewrite(self, outer: ast.For, ctx: Context) -> list[ast.stmt] | None:
        if outer.orelse or has_node(outer.body, (ast.Return,)):
            return None
        if has_node(outer.body, (ast.Break, ast.Continue), stop=(ast.For, ast.While)):
            return None
        before, after = [], []
        for inner in list(outer.body):
            if not is_range_loop(inner) or inner.orelse:
                continue
            if assigned_names(inner.body) & _names(inner.iter):
                continue  # the inner range changes as it runs
            for target in sorted(_filled(inner, outer)):
                rows, chunks, counts = ctx.fresh("rows"), ctx.fresh("chunks"), ctx.fresh("counts")
                sites = _rename_appends(inner.body, target, rows)
                chunk, count = ctx.fresh("chunk"), ctx.fresh("count")
                bounds = ast.Tuple([copy_expr(a) for a in inner.iter.args], ast.Load())
                taken = ast.Assign(
                    [ast.Tuple([name(chunk, True), name(count, True)], ast.Store())],
                    call(rt("chunk"), name(rows), bounds, ast.Constant(sites)),
                )
                index = outer.body.index(inner)
                fresh = ast.Assign([name(rows, True)], ast.List([], ast.Load()))
                handed = [taken, append_of(chunks, chunk), append_of(counts, count)]
                outer.body[index : index + 1] = [_at(fresh, inner), inner, *(_at(s, inner) for s in handed)]
                before += [ast.Assign([name(n, True)], ast.List([], ast.Load())) for n in (chunks, counts)]
                after.append(
                    ast.Assign(
                        [name(target, True)],
                        call(rt("unchunk"), name(target), name(chunks), name(counts)),
                    )
                )
        if not after:
            return None
        return [*(_at(s, outer) for s in before), outer, *(_at(s, outer) for s in after)]


def _at(stmt: ast.stmt, like: ast.stmt) -> ast.stmt:
    return ast.fix_missing_locations(ast.copy_location(stmt, like))


def _filled(inner: ast.For, outer: ast.For) -> set[str]:
    """Lists appended to in ``inner`` (directly or in its `if`s) that ``outer`` uses nowhere else."""
    appended = [append_target(s) for s in own_statements(inner.body)]
    found = set()
    for target in {t for t in appended if t}:
        uses = sum(isinstance(n, ast.Name) and n.id == target for n in ast.walk(outer))
        if uses == appended.count(target) and target not in assigned_names(outer.body):
            found.add(target)
    return found


def _rename_appends(stmts: list[ast.stmt], target: str, rows: str) -> int:
    """``target.append(v)`` -> ``rows.append(v)`` in ``stmts`` and their `if`s; how many there are."""
    count = 0
    for stmt in own_statements(stmts):
        if append_target(stmt) == target:
            stmt.value.func.value = name(rows)
            count += 1
    return count


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _outer(stmt: ast.stmt) -> bool:
    """A loop that may become a graph loop around the inner one."""
    return is_range_loop(stmt) or isinstance(stmt, ast.While)
