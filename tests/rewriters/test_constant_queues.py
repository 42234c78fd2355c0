"""ConstantQueues: a list copy read and popped only at its front becomes the list and a head
position that runs exactly like the original in Python; any other use leaves the list alone."""

from __future__ import annotations

import ast
import textwrap

from deploy.rewriters.passes import Context
from deploy.rewriters.passes.constant_queues import ConstantQueues

TABLE = [(2500.0, 1), (1000.0, 2), (500.0, 3)]


def _apply(source: str) -> ast.FunctionDef:
    func = ast.parse(textwrap.dedent(source)).body[0]
    ConstantQueues().apply(func, Context(file="f.py", first_line=1, lines=source.splitlines()))
    return func


def _run(func: ast.FunctionDef, *args):
    scope: dict = {"TABLE": TABLE}
    exec(compile(ast.fix_missing_locations(ast.Module([func], [])), "f.py", "exec"), scope)
    return scope[func.name](*args)


CALLOUTS = """
def callouts(alts):
    pending = list(TABLE)
    out = []
    for alt in alts:
        while pending and alt < pending[0][0]:
            out.append((alt, pending[0][1], len(pending)))
            pending.pop(0)
        if not pending:
            out.append((alt, -1, 0))
    return out
"""


def test_a_front_consumed_copy_becomes_a_head_position_with_the_same_results():
    original = _run(ast.parse(CALLOUTS).body[0], [3000.0, 900.0, 200.0, 100.0])
    func = _apply(CALLOUTS)
    text = ast.unparse(func)
    assert "pop" not in text and "_deploy_head_pending += 1" in text
    assert "pending[_deploy_head_pending][0]" in text
    assert _run(func, [3000.0, 900.0, 200.0, 100.0]) == original


def test_a_list_used_otherwise_is_left_alone():
    source = CALLOUTS.replace("    return out", "    pending.append((1.0, 9))\n    return out")
    assert "_deploy_head" not in ast.unparse(_apply(source))
