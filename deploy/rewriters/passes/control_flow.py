"""ControlFlowToGraphOps: one post-order walk that hands every `if`, `while` and `for ... in
range(...)` to its converter (IfToCond, WhileToLoop, ForRangeToLoop), innermost first.

A single walk matters for nesting: each converter moves the statements it converts into generated
branch/body functions, and the block walk does not enter functions; converting the inner
constructs first means a loop inside an `if` branch (or inside another loop of the other kind) is
converted before its parent becomes a function.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, map_blocks
from deploy.rewriters.passes.block_counts import mark_block_loops
from deploy.rewriters.passes.breaks import is_range_loop
from deploy.rewriters.passes.conditionals import IfToCond
from deploy.rewriters.passes.loops import ForRangeToLoop, WhileToLoop


class ControlFlowToGraphOps(Pass):
    """`if` / `while` / range `for` -> runtime dispatch calls, innermost construct first."""

    name = "control-flow-to-graph-ops"

    def __init__(self) -> None:
        self.ifs, self.whiles, self.fors = IfToCond(), WhileToLoop(), ForRangeToLoop()

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        mark_block_loops(func)  # before the walk moves loops into branch functions
        for loop in ast.walk(func):  # `if`s in a loop body (their sites' in_loop)
            if isinstance(loop, (ast.For, ast.While)):
                for node in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
                    if isinstance(node, ast.If):
                        node._deploy_in_loop = True
        map_blocks(func, lambda stmt: self._rewrite(stmt, ctx))

    def _rewrite(self, stmt: ast.stmt, ctx: Context) -> list[ast.stmt] | None:
        if isinstance(stmt, ast.If):
            return self.ifs.rewrite(stmt, ctx)
        if isinstance(stmt, ast.While):
            return self.whiles.rewrite(stmt, ctx)
        if is_range_loop(stmt):
            return self.fors.rewrite(stmt, ctx)
        return None
