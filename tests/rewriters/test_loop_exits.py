"""Which assignments right before a `return` inside a loop move after the loop with it
(passes/loop_exits._feeding)."""

import ast

from deploy.rewriters.passes.loop_exits import _feeding


def _moved(source: str) -> list[str]:
    return [ast.unparse(stmt) for stmt in _feeding(ast.parse(source).body)]


def test_the_assignments_ending_a_block_move_together():
    assert _moved("r = q\nplan = f(stops)\nout = plan * 2") == ["r = q", "plan = f(stops)", "out = plan * 2"]


def test_a_call_that_mutates_or_a_non_assignment_ends_the_run():
    assert _moved("stops.append(v)\nplan = f(stops)") == ["plan = f(stops)"]
    assert _moved("n = rows.extend(more)\nplan = f(rows)") == ["plan = f(rows)"]
    assert _moved("self.k = 1\nplan = f(x)") == ["plan = f(x)"]


def test_a_name_read_before_it_is_reassigned_stays_with_its_reader_in_the_loop():
    # moving `y = h(x)` would read x after the loop, where `x = k(y)` has changed it
    assert _moved("a = 1\ny = h(x)\nx = k(y)\nz = x + 1") == ["x = k(y)", "z = x + 1"]
