"""``del xs[i]`` (passes/deletions.py, subscript_stores.delitem): rewritten to an assignment only
for one entry of a plain name; in place eagerly, as Python's ``del``; while exporting, the rows
without that one, at a position known only at run time."""

import ast
import textwrap

import torch
from torch import nn

from deploy.rewriters.passes import Context
from deploy.rewriters.passes.deletions import DeletionsToStores, deleted_lists
from deploy.rewriters.subscript_stores import delitem
from deploy.rewriters.values import StackedList


def _apply(source: str) -> ast.FunctionDef:
    func = ast.parse(textwrap.dedent(source)).body[0]
    DeletionsToStores().apply(func, Context(file="f.py", first_line=1, lines=source.splitlines()))
    return func


def test_one_entry_deleted_becomes_an_assignment_and_slices_and_attributes_stay():
    func = _apply(
        "def f(xs, d, o):\n"
        "    while c(xs):\n"
        "        del xs[i + 1]\n"
        "    del xs[1:3]\n"
        "    del o.items[0]\n"
        "    del d['a'], d['b']\n"
    )
    out = ast.unparse(func)
    assert "xs = _deploy_rt.delitem(xs, i + 1)" in out
    assert "del xs[1:3]" in out and "del o.items[0]" in out and "del d['a'], d['b']" in out
    assert deleted_lists(func.body[0]) == frozenset({"xs"})


def test_eagerly_the_same_object_loses_the_entry():
    values, table = [1, 2, 3], {"a": 1, "b": 2}
    assert delitem(values, -1) is values and values == [1, 2]
    assert delitem(table, "a") is table and table == {"b": 2}


class DropRow(nn.Module):
    def forward(self, x, at):
        return delitem(StackedList([], x[x[:, 0] > 0]), at[0]).stacked_with_prefix()


def test_while_exporting_a_row_at_a_run_time_position_is_dropped():
    x = torch.arange(1.0, 19.0).reshape(6, 3)
    n = torch.export.Dim("n", min=2, max=16)
    program = torch.export.export(DropRow(), (x, torch.tensor([1])), dynamic_shapes=({0: n}, None))
    run = program.module()
    for rows, position in ((6, 0), (6, 2), (6, 5), (6, -1), (4, -4), (2, 1)):
        expected = [r for r in x[:rows]]
        del expected[position]
        got = run(x[:rows], torch.tensor([position]))
        assert torch.equal(got, torch.stack(expected)), (rows, position)
