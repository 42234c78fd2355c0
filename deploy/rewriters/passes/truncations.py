"""TruncationsToSlices: ``if x.shape[d] > k: x = x[..., :k]`` (or the ternary
``y = x[:k] if x.shape[0] > k else x``) becomes the slice alone.

    if src.shape[0] > self.max_src:          src = _deploy_rt.truncate(src, 0, self.max_src, False)
        src = src[: self.max_src]      ->

Python slicing already leaves a tensor of at most ``k`` entries unchanged (``x[:k]`` and
``x[-k:]`` are ``x`` when the size is ``k`` or less), so the `if` only spares a copy. As a branch on
a dynamic size it would leave ``x`` with a new unbacked size (``k`` on one path, the size on the
other) that later loops cannot run over; the slice alone gives ``Min(size, k)``, a size torch
reasons about (as a narrow: torch's slice would guard on ``size < k`` and specialise the dim). Only this exact shape converts: one statement slicing the tested tensor itself on
the tested dim by the tested bound, no `else`.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, call, map_blocks, name, rt


def _tested(test: ast.expr) -> tuple[str, int, ast.expr] | None:
    """(tensor name, dim, bound) for ``x.shape[d] > k`` / ``>=`` / ``x.size(d) > k`` / ``len(x) > k``."""
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Gt, ast.GtE))
    ):
        return None
    size, bound = test.left, test.comparators[0]
    if isinstance(size, ast.Call) and isinstance(size.func, ast.Name) and size.func.id == "len":
        if len(size.args) == 1 and isinstance(size.args[0], ast.Name):
            return size.args[0].id, 0, bound
        return None
    if (
        isinstance(size, ast.Subscript)
        and isinstance(size.value, ast.Attribute)
        and size.value.attr == "shape"
        and isinstance(size.value.value, ast.Name)
        and isinstance(size.slice, ast.Constant)
        and isinstance(size.slice.value, int)
    ):
        return size.value.value.id, size.slice.value, bound
    if (
        isinstance(size, ast.Call)
        and isinstance(size.func, ast.Attribute)
        and size.func.attr == "size"
        and isinstance(size.func.value, ast.Name)
        and len(size.args) == 1
        and isinstance(size.args[0], ast.Constant)
        and isinstance(size.args[0].value, int)
    ):
        return size.func.value.id, size.args[0].value, bound
    return None


def _cuts(entry: ast.expr, bound: ast.expr) -> bool:
    """``:k`` or ``-k:`` (no step) with ``k`` written as in the test."""
    if not isinstance(entry, ast.Slice) or entry.step is not None:
        return False
    same = ast.dump(bound)
    if entry.lower is None and entry.upper is not None:
        return ast.dump(entry.upper) == same
    negated = entry.lower
    return (
        entry.upper is None
        and isinstance(negated, ast.UnaryOp)
        and isinstance(negated.op, ast.USub)
        and ast.dump(negated.operand) == same
    )


def _slices_dim(index: ast.expr, dim: int, bound: ast.expr) -> bool:
    """Whether ``index`` cuts dim ``dim`` (counted from the front, no Ellipsis before it) and leaves
    every other entry a full ``:``."""
    entries = index.elts if isinstance(index, ast.Tuple) else [index]
    if dim >= len(entries) or any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in entries[:dim]):
        return False
    full = [
        i for i, e in enumerate(entries) if isinstance(e, ast.Slice) and e.lower is e.upper is e.step is None
    ]
    return _cuts(entries[dim], bound) and len(full) == len(entries) - 1


class TruncationsToSlices(Pass):
    """`if x.shape[d] > k: x = x[:k]` (or its ternary) -> `x = x[:k]` (see module docstring)."""

    name = "truncations-to-slices"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx))

    def rewrite(self, node: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
        if isinstance(node, ast.If) and not node.orelse and len(node.body) == 1:
            stmt = node.body[0]  # if x.shape[0] > k: x = x[:k]
            if isinstance(stmt, ast.Assign) and _is_name(stmt.value, _name_of(stmt)):
                return self._slice(stmt, node.test, stmt.value, ctx)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp):
            ternary = node.value  # y = x[:k] if x.shape[0] > k else x
            return self._slice(node, ternary.test, ternary.body, ctx, ternary.orelse)
        return None

    def _slice(
        self,
        stmt: ast.Assign,
        test: ast.expr,
        sliced: ast.expr,
        ctx: Context,
        unchanged: ast.expr | None = None,
    ) -> list[ast.stmt] | None:
        tested = _tested(test)
        if tested is None or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            return None
        source, dim, bound = tested
        if not (
            isinstance(sliced, ast.Subscript)
            and _is_name(sliced.value, source)
            and (unchanged is None or (isinstance(unchanged, ast.Name) and unchanged.id == source))
            and _slices_dim(sliced.slice, dim, bound)
        ):
            return None
        if any(isinstance(n, ast.Call) for n in ast.walk(bound)):
            return None  # the bound is computed by a call: evaluated once in the test, keep it so
        entries = sliced.slice.elts if isinstance(sliced.slice, ast.Tuple) else [sliced.slice]
        keep_last = entries[dim].lower is not None
        value = call(rt("truncate"), name(source), ast.Constant(dim), bound, ast.Constant(keep_last))
        ctx.rewrote = True  # a forward with no other control flow is converted for this alone
        assign = ast.Assign([name(stmt.targets[0].id, True)], value)
        return [ast.fix_missing_locations(ast.copy_location(assign, stmt))]


def _name_of(stmt: ast.Assign) -> str | None:
    target = stmt.targets[0] if len(stmt.targets) == 1 else None
    return target.id if isinstance(target, ast.Name) else None


def _is_name(node: ast.expr, identifier: str | None) -> bool:
    if isinstance(node, ast.Subscript):
        node = node.value
    return isinstance(node, ast.Name) and node.id == identifier
