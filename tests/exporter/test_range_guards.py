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
from deploy.rewriters import rewrite_module


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


def test_a_guard_that_a_size_is_not_0_or_1_may_fail_only_where_it_is():
    s = sympy.Symbol("s0", integer=True, positive=True)
    ranges = {s: ValueRanges(2, 64)}
    w = s - s // 2  # 1 at s = 2 and 3
    assert not _holds_everywhere(w >= 2, ranges)
    assert _holds_everywhere(w >= 2, ranges, size_one=True)
    assert _holds_everywhere(sympy.Ne(s, s // 2 + 1), ranges, size_one=True)  # `w != 1`
    assert not _holds_everywhere(w >= 3, ranges, size_one=True)  # fails where w is 2
    assert not _holds_everywhere(s // 2 + 3 <= s, ranges, size_one=True)


class HalfLagDifferences(torch.nn.Module):
    """The squared difference of a signal with itself shifted by each lag below half its length: a
    window ``x[t : t + w]`` whose width ``w`` is 1 at the smallest sizes, where the loop runs 0 times."""

    def forward(self, x):
        n = x.shape[0]
        lags = n // 2
        w = n - lags
        out = [torch.zeros(())]
        for t in range(1, lags):
            out.append(((x[:w] - x[t : t + w]) ** 2).sum())
        return torch.stack(out)


class CappedLagDifferences(torch.nn.Module):
    """The same with the lags capped at 6 once the signal is long enough (YIN's largest period)."""

    def forward(self, x):
        n = x.shape[0]
        if n // 2 < 6:
            lags = n // 2
        else:
            lags = 6
        w = n - lags
        out = [torch.zeros(())]
        for t in range(1, lags):
            out.append(((x[:w] - x[t : t + w]) ** 2).sum())
        d = torch.stack(out)
        return d / (d.sum() + 1.0)


@pytest.mark.parametrize("model", [HalfLagDifferences, CappedLagDifferences])
def test_a_window_whose_width_is_1_at_the_smallest_sizes_exports_and_matches(model):
    rewritten = rewrite_module(model().eval(), (torch.randn(20),), ({0: Dim("n", min=2, max=64)},)).module
    program, notes = export_program(rewritten, (torch.randn(20),), ({0: Dim("n", min=2, max=64)},))
    assert any("is not 0 or 1" in note for note in notes)
    for n in (2, 3, 4, 5, 9, 12, 13, 40, 64):
        x = torch.randn(n, generator=torch.Generator().manual_seed(n))
        torch.testing.assert_close(program.module()(x), model()(x))


class CentreWindows(torch.nn.Module):
    """A centre window ``ir[b, 0, h // 2 - 2 : h // 2 + 2, ...]`` per image in a converted loop: in the
    body dynamo traces, the slice's bounds stay symbolic (not the example's 30 and 34)."""

    def forward(self, ir):
        _, _, h, w = ir.shape
        out = []
        for b in range(ir.shape[0]):
            eye = ir[b, 0, h // 2 - 2 : h // 2 + 2, w // 2 - 2 : w // 2 + 2].mean()
            if eye > 0.5:
                eye = eye * 2.0
            out.append(eye)
        return torch.stack(out)


def test_a_window_at_symbolic_bounds_in_a_loop_body_exports_and_matches():
    shapes = ({0: Dim("b", min=2, max=8), 2: Dim("h", min=8, max=96), 3: Dim("w", min=8, max=96)},)
    example = (torch.rand(3, 1, 64, 64),)
    rewritten = rewrite_module(CentreWindows().eval(), example, shapes).module
    program, _ = export_program(rewritten, example, shapes)
    for size in ((2, 1, 8, 9), (5, 1, 61, 40), (8, 1, 96, 96)):
        ir = torch.rand(size, generator=torch.Generator().manual_seed(size[2]))
        ir[0, 0, size[2] // 2 - 2 : size[2] // 2 + 2] += 0.8  # the first image takes the branch
        torch.testing.assert_close(program.module()(ir), CentreWindows()(ir))


def test_guards_compiled_to_integer_arithmetic_agree_with_sympy():
    """The fast check (range_guards._compiled) gives sympy's answer at every size, for the kinds of
    guards block and chunk counts make; an unknown function falls back to sympy (None)."""
    from torch.utils._sympy.functions import FloorDiv, Max, Min, Mod

    from deploy.exporter.range_guards import _compiled

    s = sympy.Symbol("s0", integer=True, positive=True)
    guards = [
        sympy.Ge(s - FloorDiv(s, 2), 0),
        sympy.Ne(s, FloorDiv(s, 2) + 1),
        sympy.Gt(16 * FloorDiv(s + 15, 16), s),
        sympy.Le(Max(1, Min(16, 16 + s - 16 * FloorDiv(s + 15, 16))), 16),
        sympy.Eq(Mod(s, 3), 0),
        sympy.And(sympy.Ge(s, 3), sympy.Not(sympy.Eq(s, 7))),
    ]
    for guard in guards:
        compiled = _compiled(guard, s)
        for n in range(1, 300):
            assert compiled(n) == bool(guard.xreplace({s: sympy.Integer(n)})), (guard, n)
    assert _compiled(sympy.Ge(sympy.sin(s), 0), s) is None
