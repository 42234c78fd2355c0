"""SizeChoiceTails: a whole number chosen by a test on sizes (a pooling window, a kernel size) and
used by the rest of the function: the rest moves into both sides of the test, so each side reads
its own number as a Python constant.

    win = 16 if x.shape[0] >= 64 else 4            if x.shape[0] >= 64:
    y = F.avg_pool1d(x[None], win, stride=1)  ->       win = 16
    return y[0]                                        y = F.avg_pool1d(x[None], win, stride=1)
                                                       return y[0]
                                                   else:
                                                       win = 4
                                                       ...

Without it the choice is a size known only when the model runs (torch.sym_ite or a cond's output),
which torch's pooling, unfold and median filters cannot take ("cannot decide u0"). The `if` itself
is then a branch on a dynamic size like any other (a cond; its sides may give differently-sized
results). Only at the function's own top level, where the rest of the function is the rest of the
block, and only for the first such choice in a function (each side would copy the next one).
"""

from __future__ import annotations

import ast
import copy

from deploy.rewriters.passes.base import Context, Pass, rooted_at_self

_SIZE_CALLS = {"size", "dim", "numel"}


def _number(node: ast.expr) -> bool:
    """A whole number written out, or a module's setting (``self.long_window``)."""
    if isinstance(node, ast.Attribute) and rooted_at_self(node):
        return True
    return isinstance(node, ast.Constant) and type(node.value) is int


def _reads_sizes(node: ast.AST, sized: set[str]) -> bool:
    """``node`` reads a tensor's size: ``.shape``, ``.size()``, ``len(...)`` or a name holding one."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr == "shape":
            return True
        if isinstance(sub, ast.Call):
            func = sub.func
            if isinstance(func, ast.Attribute) and func.attr in _SIZE_CALLS:
                return True
            if isinstance(func, ast.Name) and func.id == "len":
                return True
        if isinstance(sub, ast.Name) and sub.id in sized:
            return True
    return False


def _choice(stmt: ast.stmt, sized: set[str]) -> tuple[ast.expr, list, list] | None:
    """``(test, then, else)`` of ``n = A if test else B`` or of an `if`/`else` whose sides both set
    the same names to numbers (among other statements), with a test on sizes; None otherwise."""
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.IfExp)
        and _number(stmt.value.body)
        and _number(stmt.value.orelse)
        and _reads_sizes(stmt.value.test, sized)
    ):
        target = stmt.targets[0].id
        sides = [
            [ast.copy_location(ast.Assign([ast.Name(target, ast.Store())], value), stmt)]
            for value in (stmt.value.body, stmt.value.orelse)
        ]
        return stmt.value.test, sides[0], sides[1]
    if isinstance(stmt, ast.If) and stmt.orelse and _reads_sizes(stmt.test, sized):
        sides = (stmt.body, stmt.orelse)
        if _targets(sides[0]) and _targets(sides[0]) == _targets(sides[1]):
            return stmt.test, stmt.body, stmt.orelse
    return None


def _targets(block: list[ast.stmt]) -> set[str]:
    """Names a statement of the block itself sets to a number (``width = 7`` beside ``baseline =
    moving_average(x, 31)``: the other statements stay where they are)."""
    return {
        s.targets[0].id
        for s in block
        if isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and isinstance(s.targets[0], ast.Name)
        and _number(s.value)
    }


def _assigned_from_sizes(stmt: ast.stmt, sized: set[str]) -> set[str]:
    """Names ``stmt`` binds to sizes (``H, W = img.shape``, ``T = x.shape[0]``, ``n = len(x)``)."""
    if isinstance(stmt, ast.Assign) and _reads_sizes(stmt.value, sized):
        return {n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return set()


def _reads(block: list[ast.stmt], names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for s in block for n in ast.walk(s))


class SizeChoiceTails(Pass):
    """A number chosen by a size test -> the rest of the function on both sides (module docstring)."""

    name = "size-choice-tails"

    def apply(self, func: ast.FunctionDef, ctx: Context) -> None:
        sized: set[str] = set()
        for i, stmt in enumerate(func.body):
            found = _choice(stmt, sized)
            rest = func.body[i + 1 :]
            if found is not None and rest:
                test, then, orelse = found
                if not _reads(rest, _targets(then)):
                    continue
                branch = ast.If(test=test, body=[*then, *rest], orelse=[*orelse, *copy.deepcopy(rest)])
                func.body[i:] = [ast.fix_missing_locations(ast.copy_location(branch, stmt))]
                ctx.rewrote = True
                return
            sized |= _assigned_from_sizes(stmt, sized)
