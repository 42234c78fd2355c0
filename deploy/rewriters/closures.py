"""Unbacked sizes a graph op's body reads from its enclosing function.

``n = (x > 0).sum().item()`` is an unbacked SymInt while exporting; a converted branch or loop body
that reads ``n`` (``scale = x.numel() / n``) closes over it, and dynamo cannot lift an unbacked
SymInt into a cond/while_loop body ("Unbacked SymInt input is not supported yet"). While torch
traces such a body, the closure cells holding unbacked SymInts hold the same value as a 0-d int64
tensor instead (arithmetic, comparisons and indexing with it behave the same); a SymFloat (``k /
42.195`` of a dynamic size ``k``), which dynamo cannot lift either, a 0-d tensor of the default
dtype, which combines with tensors as the Python float did. Likewise a view
(``D = torch.diagonal(A)`` read in a loop body), and any closed-over tensor, is a copy while torch
traces the body, since higher-order ops refuse inputs that alias each other. The cells get their values back as soon as
the graph op is built.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols


def _unbacked_cells(functions, seen: set[int]) -> Iterator[types.CellType]:
    for fn in functions:
        if not isinstance(fn, types.FunctionType) or id(fn) in seen:
            continue
        seen.add(id(fn))
        for cell in fn.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:  # a variable not assigned yet
                continue
            if isinstance(value, torch.SymInt) and free_unbacked_symbols(value):
                yield cell
            elif isinstance(value, torch.SymFloat):  # `remaining = 42.195 - k` of a dynamic size k
                yield cell
            elif isinstance(value, torch.Tensor) and not isinstance(value, torch.nn.Parameter):
                # a copy: higher-order ops refuse inputs that alias each other, and a closed-over
                # tensor may be a view of another input or the same tensor as a loop variable
                yield cell
            elif isinstance(value, types.FunctionType):
                yield from _unbacked_cells([value], seen)


@contextmanager
def unbacked_closures_as_tensors(*functions) -> Iterator[None]:
    """Within: every unbacked SymInt that ``functions`` (or functions they close over) read from
    an enclosing scope is a 0-d int64 tensor. A no-op inside dynamo, which cannot run this."""
    if torch.compiler.is_dynamo_compiling():
        yield
        return
    cells = list({id(cell): cell for cell in _unbacked_cells(functions, set())}.values())
    saved = [cell.cell_contents for cell in cells]
    for cell, value in zip(cells, saved):
        if isinstance(value, torch.Tensor):
            cell.cell_contents = value.clone(memory_format=torch.contiguous_format)
        elif isinstance(value, torch.SymFloat):  # the default dtype: a Python float's weak type
            cell.cell_contents = torch.full((), 1.0) * value
        else:
            cell.cell_contents = torch.full((), 1, dtype=torch.int64) * value
    try:
        yield
    finally:
        for cell, value in zip(cells, saved):
            cell.cell_contents = value
