"""RowLiterals: a list or tuple display of numbers appended to a list (``picks.append([onset,
i])``, ``spans.append((start, end))``) is appended through ``row_of``, which while exporting turns
it into a 1-D tensor when it holds a tensor or a symbolic size:

    for i in range(ratio.shape[0]):            for i in range(ratio.shape[0]):
        ...                           ->           ...
        picks.append([onset, i])                   picks.append(_deploy_rt.row_of([onset, i]))

A converted loop collects each appended value as a row of a buffer, which a Python list cannot be;
``torch.tensor(picks)``, ``for s, e in picks`` and ``picks[k][0]`` read such rows as they read the
lists. Eagerly, and for displays of plain Python numbers, the display is appended as it is.
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass, call, rt


class _Appends(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and len(node.args) == 1
            and not node.keywords
            and isinstance(node.args[0], (ast.List, ast.Tuple))
            and node.args[0].elts
            and not any(isinstance(e, ast.Starred) for e in node.args[0].elts)
        ):
            node.args = [ast.copy_location(call(rt("row_of"), node.args[0]), node.args[0])]
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # nested functions are converted on their own

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef


class RowLiterals(Pass):
    """``xs.append([a, b])`` -> ``xs.append(row_of([a, b]))`` (see module docstring)."""

    name = "row-literals"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        transformer = _Appends()
        func.body = [transformer.visit(stmt) for stmt in func.body]
        for stmt in func.body:
            ast.fix_missing_locations(stmt)
