"""Size guards torch.export keeps quietly (a relation of two dims) are found and retried away."""

from __future__ import annotations

import torch
from torch.export import Dim

from deploy.exporter.export import export_program
from deploy.exporter.silent_guards import unproven_guards
from deploy.rewriters import fresh_trace_state, rewrite_module


class ScaledWhenSquare(torch.nn.Module):
    """``y / diagonal(a)`` under ``if m == n``: ``y`` has m rows, the diagonal min(m, n), so tracing
    the branch at a square example records ``m == Min(m, n)``, i.e. ``m <= n``, for every size."""

    def forward(self, a, x):
        m, n = a.shape
        y = a @ x
        if m == n:
            y = y / torch.diagonal(a)
        return y * 2.0


def _setup():
    g = torch.Generator().manual_seed(0)
    example = (torch.rand(6, 6, generator=g) + 1.0, torch.randn(6, generator=g))
    rows, cols = Dim("rows", min=2, max=32), Dim("cols", min=2, max=32)
    return example, ({0: rows, 1: cols}, {0: cols})


def test_a_guard_relating_two_dims_is_found():
    example, dynamic = _setup()
    module = rewrite_module(ScaledWhenSquare(), example, dynamic).module
    with torch.no_grad(), fresh_trace_state():
        program = torch.export.export(module, example, dynamic_shapes=dynamic, strict=False)
    assert unproven_guards(program)  # torch's own program: it would refuse 12 x 5 (graphs would not)


def test_the_export_is_retried_without_it_and_runs_at_every_shape():
    example, dynamic = _setup()
    module = rewrite_module(ScaledWhenSquare(), example, dynamic).module
    program, notes = export_program(module, example, dynamic)
    assert unproven_guards(program) == []
    assert any("without the size guards" in note for note in notes)
    g = torch.Generator().manual_seed(1)
    for m, n in ((12, 5), (5, 12), (7, 7), (2, 32)):
        a, x = torch.rand(m, n, generator=g) + 1.0, torch.randn(n, generator=g)
        torch.testing.assert_close(program.module()(a, x), ScaledWhenSquare()(a, x))


def test_guards_that_hold_everywhere_are_not_reported():
    class Plain(torch.nn.Module):
        def forward(self, a, x):
            return a @ x

    example, dynamic = _setup()
    program, notes = export_program(Plain(), example, dynamic)
    assert unproven_guards(program) == [] and notes == []
