"""Size guards torch.export cannot prove are checked at every size of their range instead."""

from __future__ import annotations

import pytest
import sympy
import torch
from torch.export import Dim
from torch.utils._sympy.value_ranges import ValueRanges

from deploy.errors import NotDeployableError
from deploy.exporter.export import export_program
from deploy.exporter.range_guards import _holds_everywhere


class HalfWindows(torch.nn.Module):
    """``x[: n - n // 2]``: torch cannot prove ``n - n // 2 >= 2`` from n >= 128 by intervals."""

    def forward(self, x):
        n = x.shape[0]
        half = n // 2
        head = x[: n - half]
        return head.cumsum(0)[-1] + x[half:].sum()


def test_unprovable_but_true_guards_export_and_match():
    example = (torch.randn(200),)
    program, notes = export_program(HalfWindows(), example, ({0: Dim("n", min=128, max=2048)},))
    assert any("checked at every size" in note for note in notes)
    for n in (128, 129, 777, 2048):
        x = torch.randn(n)
        torch.testing.assert_close(program.module()(x), HalfWindows()(x))


class FixedRows(torch.nn.Module):
    """A real specialisation: the view only works for one size of the dynamic dim."""

    def forward(self, x):
        return x.view(50, 4).sum(0)


def test_a_guard_false_somewhere_in_the_range_still_fails():
    with pytest.raises(NotDeployableError):
        export_program(FixedRows(), (torch.randn(200),), ({0: Dim("n", min=128, max=2048)},))


def test_guards_are_evaluated_at_every_size():
    s, t = sympy.Symbol("s0", integer=True, positive=True), sympy.Symbol("s1", integer=True, positive=True)
    ranges = {s: ValueRanges(128, 2048), t: ValueRanges(2, 8)}
    assert _holds_everywhere(s - s // 2 >= 64, ranges)
    assert not _holds_everywhere(s - s // 2 >= 65, ranges)
    assert not _holds_everywhere(sympy.Eq(s + t, 3), ranges)  # two sizes: not checked, not trusted
