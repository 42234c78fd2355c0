"""AugmentedAssignsRebind: ``x += v`` inside an `if`/loop body becomes
``x = _deploy_rt.augmented(x, "Add", v)`` (any augmented operator), and an in-place method called
as a statement there, ``x.zero_()`` / ``x.clamp_(0, 1)``, becomes
``x = _deploy_rt.in_place_method(x, "zero_")``.

Eagerly the runtime does what Python does (in place for a tensor). While exporting, a tensor gets
a new value instead: an int the converted code carries as a 0-d tensor (``line_idx``) would
otherwise change in place under another name the conversion gave it, such as the value an append
took before it (``line_of_word.append(line_idx); line_idx += 1`` keeps 0, not 1), and a graph op's
body may not mutate its inputs anyway. Statements at the top of the function keep Python's
in-place semantics as they are.
"""

from __future__ import annotations

import ast

from deploy.rewriters.in_place import OPERATORS
from deploy.rewriters.passes.base import Context, Pass, call, constant, name, rt


class AugmentedAssignsRebind(Pass):
    """``x op= v`` in a compound statement's body -> ``x = augmented(x, op, v)``."""

    name = "augmented-assigns"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        for stmt in func.body:
            if isinstance(stmt, (ast.If, ast.For, ast.While, ast.With, ast.Try)):
                _Rebinding().visit(stmt)


class _Rebinding(ast.NodeTransformer):
    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node  # a nested function is converted on its own

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        value = node.value
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id != "self"
            and _is_in_place(value.func.attr)
        ):
            return node
        target = value.func.value.id
        rebound = ast.Call(
            rt("in_place_method"), [name(target), constant(value.func.attr), *value.args], value.keywords
        )
        return ast.fix_missing_locations(ast.copy_location(ast.Assign([name(target, True)], rebound), node))

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        op = type(node.op).__name__
        if not isinstance(node.target, ast.Name) or op not in OPERATORS:
            return node
        value = call(rt("augmented"), name(node.target.id), constant(op), node.value)
        return ast.fix_missing_locations(
            ast.copy_location(ast.Assign([name(node.target.id, True)], value), node)
        )


def _is_in_place(method: str) -> bool:
    """``add_``, ``zero_``, ``masked_fill_``: a tensor's in-place method by torch's naming."""
    return method.endswith("_") and not method.startswith("_") and method[:-1].isidentifier()
