"""Which assignments right before a `return` inside a loop move after the loop with it
(passes/loop_exits._feeding)."""

import ast

import torch

from deploy.rewriters.convert import convert_function, converted_source
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


def first_hot_tile(image):
    for i in range(image.shape[0] // 4):
        for j in range(image.shape[1] // 4):
            if image[i * 4 : (i + 1) * 4, j * 4 : (j + 1) * 4].max() > 2.0:
                return torch.tensor([i, j])
    return torch.tensor([-1, -1])


def test_a_return_in_an_inner_loop_copies_the_inner_counter_as_an_initialised_int():
    # the inner loop's `return` leaves its counter in a copy that has a value (0) before every loop;
    # the outer loop's copy of that copy must have one too: a copy without one is a placeholder
    # slot, which a probe of the outer body has to fill (and a body calling a submodule could not)
    image = torch.rand(12, 8, generator=torch.Generator().manual_seed(0))
    hot = image.clone()
    hot[9, 5] = 3.0
    converted = convert_function(first_hot_tile)
    for x in (image, hot):
        assert torch.equal(converted(x), first_hot_tile(x))
    assert "_deploy_last" not in converted_source(first_hot_tile)
