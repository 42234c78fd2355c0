"""Distinct names for the unbacked sizes a graph op's inputs bring into dynamo's frame.

torch compiles a cond / while_loop body in a frame with a shape env of its own; an input whose sizes
are unbacked in the exported program (``chunks`` of shape ``(u2, u3)`` after a branch on a size) gets
fresh unbacked sizes there (``transfer_symbols_from_foreign_shape_env``). torch 2.13 tells the
program's symbols from the frame's by name only, and both count from ``u0``: when the fresh size of
dim 0 is named ``u3`` (the frame's fourth unbacked size), dim 1's ``u3`` counts as already mapped, so
the body sees ``(u3, u3)``: its rows then have the row count's size, and dynamo fails with "Guard
failed on the same frame it was created ... Eq(u2, u3)". While deploy builds a graph op, the frame's
count first moves past every unbacked size the input carries, so fresh names never collide with them.

torch also gives each input its own fresh sizes where the program has one: a body reading the
closed-over ``priority`` and the carried ``done``, both ``u0`` long after a size branch, saw ``u3``
and ``u1``. The frame is told they are equal (a replacement, as torch makes for two dims of one
input with the same size).

A dim that is a plain int in the program (``mmm`` of shape ``(1,)``, a pose of shape ``(3,)``) stays
one in the frame too: the graph op can only ever see that size there. Dynamo would give it a symbol
of its own (for sizes 0 and 1, when the size-oblivious retry is on): ``recent - mmm`` in a branch
then decided the broadcast as ``Eq(u0, s66)``, which the program reads back as "the branch's size
is 1" and asserts at run time; and a loop carrying the pose as ``s5`` past a ``break`` whose cond
leaves it as it was on one side and rebuilds it (``torch.cat`` of 2 and 1 entries) on the other got
a new unbacked size from the cond, which the loop refused as not ``s5`` (set67 icp_scan_matcher).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import contextmanager

import sympy
import torch
from torch.fx.experimental.symbolic_shapes import (
    DimDynamic,
    ShapeEnv,
    StatelessSymbolicContext,
    free_unbacked_symbols,
)
from torch.utils._sympy.value_ranges import ValueRanges

_TRANSFER = getattr(ShapeEnv, "transfer_symbols_from_foreign_shape_env", None)
_DEPTH = [0]


def _highest_unbacked(values) -> int:
    numbers = [
        int(match.group(1))
        for value in values
        if isinstance(value, torch.SymInt)
        for symbol in free_unbacked_symbols(value)
        if (match := re.fullmatch(r"u(\d+)", symbol.name))
    ]
    return max(numbers, default=-1)


def _transfer(self, sizes, strides, storage_offset, *args, **kwargs):
    highest = _highest_unbacked((*sizes, *strides, storage_offset))
    if highest >= 0 and isinstance(self.unbacked_symint_counter, int):
        self.unbacked_symint_counter = max(self.unbacked_symint_counter, highest + 1)
    context = kwargs.get("symbolic_context")
    if isinstance(context, StatelessSymbolicContext):
        kwargs["symbolic_context"] = _plain_ints_static(sizes, context)
    transferred = _TRANSFER(self, sizes, strides, storage_offset, *args, **kwargs)
    _share_program_sizes(self, sizes, transferred[0])
    _program_ranges(self, sizes, transferred[0])
    return transferred


def _program_ranges(frame: ShapeEnv, sizes, new_sizes) -> None:
    """Give each fresh unbacked size the range its size has in the program. torch makes it a size
    of ``[0, inf]``: the body of a loop over a field a size branch may have halved (``u2 >= 4`` in
    the program) could not tell ``u[1:]`` and ``u[:-1]`` the same length ("Eq(Max(0, u2 - Min(1,
    u2)), Max(0, u2 - 1))"), which holds for every size the program allows."""
    for size, new in zip(sizes, new_sizes):
        if not (isinstance(size, torch.SymInt) and isinstance(new, torch.SymInt)):
            continue
        if not (isinstance(new.node.expr, sympy.Symbol) and free_unbacked_symbols(new)):
            continue
        try:
            ranges = size.node.shape_env.bound_sympy(size.node.expr)
            low = max(int(ranges.lower), 0)
            high = int(ranges.upper) if ranges.upper.is_finite is True else None
        except (TypeError, AttributeError, OverflowError, ValueError):
            continue
        current = frame.var_to_range.get(new.node.expr)
        if (low == 0 and high is None) or current is None:
            continue
        frame._update_var_to_range(
            new.node.expr, ValueRanges(low, high if high is not None else current.upper)
        )


def _share_program_sizes(frame: ShapeEnv, sizes, new_sizes) -> None:
    """Tell the frame that inputs whose dims are one unbacked size of the program are as long as
    each other. torch gives every input's unbacked dims fresh sizes of their own, so a body reading
    the closed-over ``priority`` and the carried ``done``, both ``u0`` long in the program, saw
    ``u3`` and ``u1`` and could not broadcast them ("Eq(u1, u3)")."""
    seen = frame.__dict__.setdefault("_deploy_program_sizes", {})
    for size, new in zip(sizes, new_sizes):
        if not (isinstance(size, torch.SymInt) and isinstance(new, torch.SymInt)):
            continue
        if not (isinstance(size.node.expr, sympy.Symbol) and free_unbacked_symbols(size)):
            continue
        key = (id(size.node.shape_env), size.node.expr)
        first = seen.setdefault(key, new.node.expr)
        if first != new.node.expr and isinstance(new.node.expr, sympy.Symbol):
            frame._set_replacement(new.node.expr, first, "deploy: one unbacked size of the program")


def _plain_ints_static(sizes, context: StatelessSymbolicContext) -> StatelessSymbolicContext:
    """``context`` with every plain-int size static."""
    dims = list(context.dynamic_sizes)
    for i, size in enumerate(sizes):
        if not isinstance(size, torch.SymInt):
            dims[i] = DimDynamic.STATIC
    if dims == list(context.dynamic_sizes):
        return context
    return dataclasses.replace(context, dynamic_sizes=dims)


@contextmanager
def distinct_unbacked_names() -> Iterator[None]:
    """Within: inputs of graph ops torch compiles get unbacked sizes named apart from their own.
    A no-op inside dynamo (a graph op nested in a traced body shares its frame) and on torch builds
    without the transfer step."""
    if _TRANSFER is None or torch.compiler.is_dynamo_compiling():
        yield
        return
    _DEPTH[0] += 1
    ShapeEnv.transfer_symbols_from_foreign_shape_env = _transfer
    try:
        yield
    finally:
        _DEPTH[0] -= 1
        if _DEPTH[0] == 0:
            ShapeEnv.transfer_symbols_from_foreign_shape_env = _TRANSFER
