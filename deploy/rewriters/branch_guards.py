"""Loops in a branch that is computed but not taken run no iterations.

The last-resort select of an `if` (selects.select_at_top_level) computes both branches at the top
level of the exported program and picks the taken one's outputs. A ``while`` in the other branch
then runs on values it was not written for: after ``if blank: return img`` a border-peeling loop
on a blank page walks past the image (an out-of-range gather at run time) or never ends. While a
branch is computed this way, every ``while_loop`` emitted at the top level of it has its test
and-ed with the branch's predicate, so on the path not taken it stops before its first iteration.
The same holds for a top-level probe of a branch (its nodes are dead, but the checks torch adds on a
size it reads, ``top`` in ``x[top:bottom]``, keep them in the program): its loops run no iterations.

Such a loop leaves its lists empty on the path not taken, so what the branch computes from them
must not fail there either: ``last[-1:].expand(rest)`` (the last row repeated) reads one zero row
instead of none (``expand``, also in a cond's branch traced there); the path taken reads its rows
as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

from deploy.rewriters import sites

_GUARDS: list[torch.Tensor] = []


@contextlib.contextmanager
def taken_only_if(pred: torch.Tensor, value: bool = True) -> Iterator[None]:
    """Within: top-level graph loops run only where ``pred`` (a bool tensor) is ``value``. A no-op
    inside dynamo (a select in a loop body: a loop nested there is not guarded)."""
    if torch.compiler.is_dynamo_compiling():
        yield
        return
    _GUARDS.append(pred if value else torch.logical_not(pred))
    try:
        yield
    finally:
        _GUARDS.pop()


def both_branches(pred: torch.Tensor, then_fn, else_fn) -> tuple:
    """``(then_fn(), else_fn())``, each computed with its loops guarded by its side of ``pred``."""
    with taken_only_if(pred):
        then_out = then_fn()
    with taken_only_if(pred, False):
        else_out = else_fn()
    return then_out, else_out


def in_guarded_branch() -> bool:
    """Whether a branch that may not be taken (or a probe) is being computed at the top level."""
    return (bool(_GUARDS) or sites.is_probing()) and not torch.compiler.is_dynamo_compiling()


def guarded_cond(cond_fn):
    """``cond_fn`` and-ed with the enclosing branches' predicates (and with False in a probe);
    ``cond_fn`` itself when there are none or inside a body dynamo traces (a loop nested there runs
    only when its outer one does)."""
    if torch.compiler.is_dynamo_compiling():
        return cond_fn
    guards = list(_GUARDS)
    if sites.is_probing():
        guards.append(torch.zeros((), dtype=torch.bool))
    if not guards:
        return cond_fn
    guard = guards[0]
    for pred in guards[1:]:
        guard = torch.logical_and(guard, pred)

    def cond(*values):
        return torch.logical_and(guard.reshape(()), cond_fn(*values))

    return cond


def expand(x: object, *sizes: object) -> object:
    """``x.expand(*sizes)``; while exporting, each dim of a symbolic size gets at least one (zero)
    row first: a size 1 on the path taken can be 0 on a path computed but not taken (or in a cond's
    branch under it), where an expand from 0 rows fails when the program runs. Wherever eager's
    expand succeeds this is the same: a size of 1 or more is kept, and 0 expands only to 0."""
    from deploy.rewriters.values import is_sym_int, is_tracing

    if not (isinstance(x, torch.Tensor) and is_tracing()):
        return x.expand(*sizes)
    shape = sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, torch.Size)) else sizes
    lead = len(shape) - x.dim()
    for d in range(x.dim()):
        size, target = x.shape[d], shape[lead + d]
        # (is_sym_int: inside dynamo a SymInt poses as an int, and `target in (-1, 1)` would guard)
        if (not is_sym_int(target) and target in (-1, 1)) or (isinstance(size, int) and size != 1):
            continue
        # (a size torch takes for 1, ``rows[-1:]`` of a data-dependent count, may be 0 there too)
        at_least_one = size if isinstance(size, int) else torch.sym_max(size, 1)
        padded = torch.cat([x, x.new_zeros(*x.shape[:d], 1, *x.shape[d + 1 :])], d)
        x = padded.narrow(d, 0, at_least_one)
    return x.expand(*sizes)
