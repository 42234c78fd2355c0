"""UnbindLoopsToRange: a loop over a tensor's slices along a dim becomes a loop over that dim's size
(and ``reversed(range(n))`` becomes ``range(n - 1, -1, -1)``, which ForRangeToLoop converts).

    for x_t in x.unbind(1):                   _deploy_seq_1 = x
        h = cell(x_t, h)           ->         for _deploy_k_2 in range(_deploy_seq_1.shape[1]):
                                                  x_t = _deploy_seq_1[:, _deploy_k_2]
                                                  h = cell(x_t, h)

``x.unbind(d)`` has as many entries as the size of dim ``d``, fixed to the example's size while
tracing; a `range` over the size keeps a dynamic dim dynamic (ForRangeToLoop then converts it, and
``x[:, k]`` with the loop counter becomes an index_select). Also ``torch.unbind(x, d)`` and
``enumerate(...)`` around either (the enumerate index becomes the loop counter). Eagerly the loop
visits the same slices in the same order.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, call, map_blocks, name


def _unbind_source(node: ast.expr) -> tuple[ast.expr, int] | None:
    """(tensor, constant dim) for ``t.unbind(d)`` / ``t.unbind(dim=d)`` / ``torch.unbind(t, d)``."""
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "unbind"
    ):
        return None
    args = list(node.args)
    if isinstance(node.func.value, ast.Name) and node.func.value.id == "torch":
        if not args:
            return None
        tensor, args = args[0], args[1:]
    else:
        tensor = node.func.value
    dims = args + [k.value for k in node.keywords if k.arg == "dim"]
    if len(dims) > 1 or len(node.keywords) > (1 if dims and not args else 0):
        return None
    if not dims:
        return tensor, 0
    dim = dims[0]
    if (
        isinstance(dim, ast.UnaryOp)
        and isinstance(dim.op, ast.USub)
        and isinstance(dim.operand, ast.Constant)
    ):
        dim = ast.Constant(-dim.operand.value)
    if not (isinstance(dim, ast.Constant) and isinstance(dim.value, int) and not isinstance(dim.value, bool)):
        return None
    return tensor, dim.value


def _reverse_range(loop: ast.For) -> bool:
    """``for t in reversed(range(b))`` / ``reversed(range(a, b))`` -> ``range(b - 1, a - 1, -1)``."""
    it = loop.iter
    if not (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "reversed"
        and len(it.args) == 1
        and isinstance(it.args[0], ast.Call)
        and isinstance(it.args[0].func, ast.Name)
        and it.args[0].func.id == "range"
        and len(it.args[0].args) in (1, 2)
        and not it.args[0].keywords
    ):
        return False
    bounds = it.args[0].args
    start, stop = (ast.Constant(0), bounds[0]) if len(bounds) == 1 else bounds
    first = ast.BinOp(stop, ast.Sub(), ast.Constant(1))
    last = ast.BinOp(start, ast.Sub(), ast.Constant(1))
    what = getattr(loop, "_deploy_what", None)
    loop.iter = ast.copy_location(
        call(name("range"), first, last, ast.UnaryOp(ast.USub(), ast.Constant(1))), it
    )
    ast.fix_missing_locations(loop.iter)
    loop._deploy_what = what or ast.unparse(it)
    return True


def _slice_at(seq: str, dim: int, counter: str) -> ast.Subscript:
    """``seq[:, :, counter]`` (dim >= 0) or ``seq[..., counter, :]`` (dim < 0)."""
    full = ast.Slice(lower=None, upper=None, step=None)
    if dim >= 0:
        entries = [full] * dim + [name(counter)]
    else:
        entries = [ast.Constant(Ellipsis), name(counter)] + [full] * (-dim - 1)
    index = entries[0] if len(entries) == 1 else ast.Tuple(entries, ast.Load())
    return ast.Subscript(value=name(seq), slice=index, ctx=ast.Load())


class UnbindLoopsToRange(Pass):
    """`for v in x.unbind(d)` (optionally enumerated) -> `for k in range(x.shape[d])` + a slice."""

    name = "unbind-loops-to-range"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        map_blocks(func, lambda stmt: self.rewrite(stmt, ctx) if isinstance(stmt, ast.For) else None)

    def rewrite(self, loop: ast.For, ctx: Context) -> list[ast.stmt] | None:
        iterable, target, index_target = loop.iter, loop.target, None
        if (
            isinstance(iterable, ast.Call)
            and isinstance(iterable.func, ast.Name)
            and iterable.func.id == "enumerate"
            and len(iterable.args) == 1
            and not iterable.keywords
            and isinstance(target, ast.Tuple)
            and len(target.elts) == 2
            and isinstance(target.elts[0], ast.Name)
        ):
            iterable, index_target, target = iterable.args[0], target.elts[0].id, target.elts[1]
        if loop.orelse:
            return None
        if index_target is None and _reverse_range(loop):
            return None  # rewritten in place
        source = _unbind_source(iterable)
        if source is None:
            return None
        tensor, dim = source
        seq = ctx.fresh("seq")
        counter = index_target or ctx.fresh("k")
        size = ast.Subscript(
            value=ast.Attribute(value=name(seq), attr="shape", ctx=ast.Load()),
            slice=ast.Constant(dim),
            ctx=ast.Load(),
        )
        take = ast.Assign(targets=[target], value=_slice_at(seq, dim, counter))
        new_loop = ast.For(
            target=name(counter, True), iter=call(name("range"), size), body=[take, *loop.body], orelse=[]
        )
        stmts = [ast.Assign(targets=[name(seq, True)], value=tensor), new_loop]
        for stmt in stmts:
            ast.copy_location(stmt, loop)
            ast.fix_missing_locations(stmt)
        new_loop._deploy_what = ctx.source_of(loop.iter)  # the user's header in messages and reports
        return stmts
