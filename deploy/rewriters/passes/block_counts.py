"""Which `for` loops run over a count of blocks: ``range(blocks)`` where ``blocks`` is a ceiling
division (``(n + k - 1) // k``, written in the bound or assigned to the bound's name in the
function) and the body slices from the counter (``x[b * k : (b + 1) * k]``, a ``span`` by then).
Their last block may be shorter than the others eagerly: such a site's loop runs the last block
apart (chunked_loop.is_block_loop).
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import read_names
from deploy.rewriters.passes.breaks import is_range_loop


def mark_block_loops(func: ast.FunctionDef) -> None:
    """Mark each range loop of ``func`` (``_deploy_ceiling_blocks``) before any is converted."""
    for loop in ast.walk(func):
        if is_range_loop(loop):
            loop._deploy_ceiling_blocks = ceiling_blocks(loop, func)


def ceiling_blocks(loop: ast.For, func: ast.FunctionDef) -> bool:
    """Whether ``loop`` (a range loop) runs over a ceiling-division count, slicing from its counter."""
    if len(loop.iter.args) != 1 or not isinstance(loop.target, ast.Name):
        return False
    bound = loop.iter.args[0]
    if isinstance(bound, ast.Name):
        values = [
            node.value
            for node in ast.walk(func)
            if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == bound.id for t in node.targets)
        ]
        if len(values) != 1:
            return False
        bound = values[0]
    if not _ceiling_division(bound):
        return False
    counter = loop.target.id
    return any(counter in read_names([start]) for start in _slice_starts(loop.body))


def _slice_starts(body: list[ast.stmt]):
    """The lower bounds of the slices in ``body``: ``x[lo:hi]``, or ``_deploy_rt.span(lo, k)`` as
    passes/subscripts.py writes a window read at a loop counter."""
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Slice) and node.lower is not None:
                yield node.lower
            elif (
                isinstance(node, ast.Call)
                and node.args
                and getattr(node.func, "attr", "") in ("span", "slice_of")
            ):
                yield node.args[0]


def _ceiling_division(node: ast.expr) -> bool:
    """``(n + k - 1) // k``: a floor division of a sum (``(n - 1) // k`` counts whole blocks only,
    possibly none)."""
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.FloorDiv)
        and isinstance(node.left, ast.BinOp)
        and any(isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Add) for sub in ast.walk(node.left))
    )
