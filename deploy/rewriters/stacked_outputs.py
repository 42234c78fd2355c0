"""Lists a graph loop filled (StackedList) as outputs of a cond's branches:

    taken = [False] * po.shape[0]                # a StackedList while exporting (list_builtins.py)
    for i in range(n):
        if ok:                                   # a cond inside the loop body
            taken[j] = True                      # -> taken = setitem(taken, j, True)

torch.cond's branches may return tensors only. Each StackedList a branch returns goes through the
cond as its rows in a one-field named tuple (a pytree node torch flattens), and comes out a
StackedList again; both branches must give rows of one shape, as for any tensor.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch.utils import _pytree as pytree

from deploy.rewriters.values import StackedList


class Rows(NamedTuple):
    rows: torch.Tensor


def boxed(fn):
    """``fn`` with each StackedList it returns given as its rows."""

    def run():
        return pytree.tree_map(
            lambda v: Rows(v.stacked_with_prefix()) if isinstance(v, StackedList) else v,
            fn(),
            is_leaf=lambda v: isinstance(v, StackedList),
        )

    return run


def unboxed(result):
    """``result`` of a cond over boxed branches, with the rows StackedLists again."""
    return pytree.tree_map(
        lambda v: StackedList([], v.rows) if isinstance(v, Rows) else v,
        result,
        is_leaf=lambda v: isinstance(v, Rows),
    )
