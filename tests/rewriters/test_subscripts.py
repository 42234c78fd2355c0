"""Reads and writes at a position the data gives (a 0-d tensor) while exporting: a negative
position counts from the end, as eager does (the graph reads `marked[c]` with `c = -1` where
Python short-circuits `c >= 0 and not marked[c]`)."""

import pytest
import torch
from torch import nn

from deploy.rewriters.subscript_stores import setitem
from deploy.rewriters.subscripts import getitem


class ReadAt(nn.Module):
    def forward(self, x, refs):
        return getitem(x, refs[0])


class WriteAt(nn.Module):
    def forward(self, x, refs):
        return setitem(x.clone(), refs[0], 9.0)


def _export(module, x):
    n = torch.export.Dim("n", min=2, max=16)
    return torch.export.export(module, (x, torch.tensor([1])), dynamic_shapes=({0: n}, None)).module()


def test_a_read_at_a_negative_position_counts_from_the_end():
    x = torch.arange(10.0, 16.0)
    run = _export(ReadAt(), x)
    for position in (0, 3, 5, -1, -2, -6):
        assert run(x, torch.tensor([position])) == x[position], position


def test_a_write_at_a_negative_position_counts_from_the_end():
    x = torch.arange(10.0, 16.0)
    run = _export(WriteAt(), x)
    for position in (2, -1, -3):
        expected = x.clone()
        expected[position] = 9.0
        assert torch.equal(run(x, torch.tensor([position])), expected), position


def test_a_named_row_read_at_a_run_time_position_keeps_its_numbers_and_refuses_its_name():
    from deploy.errors import NotDeployableError
    from deploy.rewriters.run_time_positions import read_at

    rows = [("W8", "steel", 10.0), ("W10", "steel", 20.0)]
    name, grade, mass = read_at(rows, torch.tensor(1))
    assert grade == "steel" and float(mass) == 20.0
    with pytest.raises(NotDeployableError, match="known only at run time"):
        f"{name}"


class LastKeptInBranch(nn.Module):
    """``kept[-1]`` in a cond's branch, ``kept`` of a data-dependent length (dynamo cannot guard
    the bounds of a negative index on it)."""

    def forward(self, x):
        kept = x[x > 0]

        def last():
            return getitem(kept, -1) * 2.0

        def none():
            return x.sum() * 0.0

        return torch.cond((x > 0).any(), last, none, ())


def test_a_negative_read_of_an_unbacked_length_in_a_branch_counts_from_the_end():
    x = torch.tensor([1.0, -2.0, 3.0, -4.0])
    n = torch.export.Dim("n", min=2, max=16)
    run = torch.export.export(LastKeptInBranch(), (x,), dynamic_shapes=({0: n},), strict=False).module()
    for values in ([1.0, -2.0, 3.0, -4.0], [-1.0, 5.0], [-1.0, -1.0, -3.0]):
        v = torch.tensor(values)
        expected = v[v > 0][-1] * 2.0 if (v > 0).any() else torch.tensor(0.0)
        assert torch.equal(run(v), expected), values
