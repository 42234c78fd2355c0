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
"""

from __future__ import annotations

import ast

from deploy.rewriters.passes.base import Context, Pass
from deploy.rewriters.passes.returns import own_returns


class StringReturnsToCodes(Pass):
    """String-literal returns -> int codes, the function marked for the wrapper (module docstring)."""

    name = "string-returns-to-codes"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        returns = list(own_returns(func.body))
        if not returns or not func.body or not isinstance(func.body[-1], ast.Return):
            return
        if not all(isinstance(r.value, ast.Constant) and isinstance(r.value.value, str) for r in returns):
            return
        if len({r.value.value for r in returns}) < 2:
            return
        codes: dict[str, int] = {}
        for ret in returns:
            ret.value = ast.copy_location(
                ast.Constant(codes.setdefault(ret.value.value, len(codes))), ret.value
            )
        func._deploy_string_returns = tuple(codes)
        ctx.rewrote = True
