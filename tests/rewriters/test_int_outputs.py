"""Sizes a branch on a dynamic size picks: a test comparing the two sizes gives their Min or Max,
whose bounds torch knows (a ``sym_ite`` of them is a Piecewise it cannot bound)."""

from __future__ import annotations

import torch
from torch._dynamo.source import ConstantSource
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv

from deploy.rewriters.int_outputs import _size_ite


def _size(env: ShapeEnv, name: str, hint: int) -> torch.SymInt:
    symbol = env.create_symbol(hint, ConstantSource(name), dynamic_dim=DimDynamic.DYNAMIC)
    return env.create_symintnode(symbol, hint=hint)


def test_a_test_comparing_the_two_sizes_picks_their_min_or_max():
    half = _size(ShapeEnv(), "n", 40) // 2
    assert str(_size_ite(half < 100, half, 100).node.expr) == str(torch.sym_min(half, 100).node.expr)
    assert str(_size_ite(100 > half, half, 100).node.expr) == str(torch.sym_min(half, 100).node.expr)
    assert str(_size_ite(half >= 100, half, 100).node.expr) == str(torch.sym_max(half, 100).node.expr)
    assert str(_size_ite(half < 100, 100, half).node.expr) == str(torch.sym_max(half, 100).node.expr)


def test_other_tests_pick_by_if_then_else():
    n = _size(ShapeEnv(), "n", 40)
    picked = _size_ite(n > 16, 4, n // 2)
    assert "Piecewise" in str(picked.node.expr)
