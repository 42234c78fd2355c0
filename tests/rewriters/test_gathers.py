"""The gathers that stand in for torch ops whose size or shift must be a Python int while exporting:
``torch.roll`` by a tensor shift, along one dim and over the flattened tensor."""

import pytest
import torch
from torch import nn

from deploy.rewriters.gathers import roll


class RollBy(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.dims = dims

    def forward(self, x, shift):
        return roll(x, -shift, self.dims)


@pytest.mark.parametrize("dims", [None, 1, -2, (0,)])
def test_roll_by_a_tensor_shift_matches_torch_roll_for_every_shift(dims):
    x = torch.arange(24.0).reshape(4, 6)
    program = torch.export.export(RollBy(dims), (x, torch.tensor(2)))
    for shift in (0, 1, 5, 6, 13, -1, -7):
        expected = torch.roll(x, -shift) if dims is None else torch.roll(x, -shift, dims)
        got = program.module()(x, torch.tensor(shift))
        assert torch.equal(got, expected), (dims, shift)


class RollByTwo(nn.Module):
    def forward(self, x):
        return roll(x, 2, 0)


def test_a_python_int_shift_stays_torch_roll():
    program = torch.export.export(RollByTwo(), (torch.randn(5, 3),))
    assert any(n.target is torch.ops.aten.roll.default for n in program.graph.nodes)
    assert roll(torch.arange(4), 1).tolist() == [3, 0, 1, 2]
