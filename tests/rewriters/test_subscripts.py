"""Reads and writes at a position the data gives (a 0-d tensor) while exporting: a negative
position counts from the end, as eager does (the graph reads `marked[c]` with `c = -1` where
Python short-circuits `c >= 0 and not marked[c]`)."""

import pytest
import torch
from torch import nn

from deploy.rewriters.subscripts import getitem, setitem


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
