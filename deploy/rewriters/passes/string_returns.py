"""StringReturnsToCodes: a helper whose every return is a string literal (a class label picked by
tensor tests) returns int codes inside, and the literal of its code outside.

    def ground_class(ucs, rqd):                     def ground_class(ucs, rqd):
        if ucs < 5.0:                                   if ucs < 5.0:
            return "soft"                  ->               return 0
        return "mixed"                                  return 1

A converted `if` can return numbers but not strings, so the tests become conds over codes; the built
function is wrapped (runtime.string_returns) so its callers still get ``"soft"`` / ``"mixed"`` whenever
the code is a Python int (every eager run), and while exporting with a code the model computes, a
StringKey: a key into an ``nn.ModuleDict`` of the module picks among the literals' entries (choice.py),
and ``==`` / ``!=`` with a literal is a test of the code.

A return may also give back a parameter the helper compares with literals (``return mode`` in a
state machine's ``next_mode(mode, hot_spot)``): its code among the helper's literals
(``_deploy_rt.string_code``), whether the caller passed a string or a StringKey.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names
from deploy.rewriters.passes.base import Context, Pass, call, rt
from deploy.rewriters.passes.returns import own_returns


def _literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def returned_literals(func: ast.FunctionDef) -> tuple[str, ...] | None:
    """The literals a helper gives back when every return is a string literal or a parameter it
    compares with literals (``return mode``: the state passed through); None for any other helper."""
    returns = list(own_returns(func.body))
    if not returns or not func.body or not isinstance(func.body[-1], ast.Return):
        return None
    params = {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}
    if not all(
        _literal(r.value) or (isinstance(r.value, ast.Name) and r.value.id in params) for r in returns
    ):
        return None
    texts = [r.value.value for r in returns if _literal(r.value)]
    passed = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    if not texts or passed & assigned_names(func.body):
        return None
    compared = {name: [] for name in passed}
    for node in ast.walk(func):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id in passed:
            for right in node.comparators:
                entries = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
                compared[node.left.id] += [e.value for e in entries if isinstance(e, ast.Constant)]
    if not all(any(isinstance(v, str) for v in values) for values in compared.values()):
        return None  # a parameter never compared with a string may be anything
    if not passed and len(set(texts)) < 2:
        return None
    literals = texts + [v for values in compared.values() for v in values if isinstance(v, str)]
    return tuple(dict.fromkeys(literals))


class StringReturnsToCodes(Pass):
    """String-literal returns -> int codes, the function marked for the wrapper (module docstring)."""

    name = "string-returns-to-codes"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        literals = returned_literals(func)
        if literals is None:
            return
        texts = ast.Tuple([ast.Constant(text) for text in literals], ast.Load())
        for ret in own_returns(func.body):
            if isinstance(ret.value, ast.Name):  # `return mode`: the code of what the caller passed
                ret.value = ast.copy_location(call(rt("string_code"), ret.value, texts), ret.value)
            else:
                ret.value = ast.copy_location(ast.Constant(literals.index(ret.value.value)), ret.value)
        func._deploy_string_returns = literals
        ctx.rewrote = True
