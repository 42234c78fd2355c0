"""The bound a `while` loop's length test gives the one list it appends to:

    picked = []
    while len(picked) < k and pool.any():
        ...                          # `continue`s and `break`s on tensor values
        picked.append(best)

Each iteration appends at most once and the loop stops once the list holds ``k`` rows, so the list
never holds more than ``max(len(picked), k)`` rows, however many iterations skip their append. The
expression ``k - len(picked)`` is then the room the list needs (AnnotateCounterBounds notes it as
the loop's bound; row_lists.py carries the list in a buffer of that many more rows).

Only when the body also reads that list (a list of rows; one read only by its length is a counter's,
ListLengthCounters), when it is the only one the body changes, by one ``append`` statement outside any
nested loop, the list is never reassigned there, and the body assigns nothing the limit reads:
the bound counts rows of that list, not iterations, so no other list may take room from it.
"""

from __future__ import annotations

import ast

from deploy.rewriters.analysis import assigned_names, read_names

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_MUTATORS = ("append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse")


def length_bound(loop: ast.While) -> ast.expr | None:
    """``N - len(xs)`` for ``while len(xs) < N`` (``<=``: plus one; also as an operand of a
    top-level ``and``) under the conditions above; None otherwise."""
    tests = (
        loop.test.values
        if isinstance(loop.test, ast.BoolOp) and isinstance(loop.test.op, ast.And)
        else [loop.test]
    )
    for test in tests:
        found = _length_test(test)
        if found is None:
            continue
        target, limit, inclusive = found
        if not _appends_once_at_most(loop, target) or assigned_names(loop.body) & read_names([limit]):
            continue
        length = ast.Call(ast.Name("len", ast.Load()), [ast.Name(target, ast.Load())], [])
        room: ast.expr = ast.BinOp(limit, ast.Sub(), length)
        if inclusive:
            room = ast.BinOp(room, ast.Add(), ast.Constant(1))
        return ast.fix_missing_locations(ast.copy_location(room, loop))
    return None


def _length_test(test: ast.expr) -> tuple[str, ast.expr, bool] | None:
    """``len(xs) < N`` / ``len(xs) <= N``: (xs, N, inclusive)."""
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Lt, ast.LtE))
    ):
        return None
    left = test.left
    if not (
        isinstance(left, ast.Call)
        and isinstance(left.func, ast.Name)
        and left.func.id == "len"
        and len(left.args) == 1
        and not left.keywords
        and isinstance(left.args[0], ast.Name)
    ):
        return None
    return left.args[0].id, test.comparators[0], isinstance(test.ops[0], ast.LtE)


def _appends_once_at_most(loop: ast.While, target: str) -> bool:
    """One ``target.append(v)`` statement in the body, in no nested loop; no other list mutated;
    ``target`` not reassigned, and read besides its append (see module docstring)."""
    appends, statements, reads = 0, 0, 0
    todo = [(stmt, False) for stmt in loop.body]
    while todo:
        node, nested = todo.pop()
        if isinstance(node, _SCOPES):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _MUTATORS
        ):
            receiver = node.func.value
            if not (isinstance(receiver, ast.Name) and receiver.id == target and node.func.attr == "append"):
                return False  # another list (or a tensor method of that name): rows of other lists
            if nested:
                return False
            appends += 1
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            statements += isinstance(func, ast.Attribute) and func.attr == "append"
        elif isinstance(node, ast.Name) and node.id == target and isinstance(node.ctx, ast.Load):
            reads += 1
        inner = nested or isinstance(node, (ast.For, ast.While))
        todo.extend((child, inner) for child in ast.iter_child_nodes(node))
    # read besides its append (`torch.stack(picked)`): a list of rows (row_lists.py), whose room
    # this bound is; one the body does not read is ListLengthCounters' (a counter, one row per step)
    return appends == statements == 1 and reads > 1 and target not in assigned_names(loop.body)
