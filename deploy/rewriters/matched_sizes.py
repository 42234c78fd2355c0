"""A cond's branch that needs a list a loop filled to be as long as another size.

    for p in range(punches.shape[0]):            # appends one split per control found ...
        if code == course[ptr]:
            split_times.append(t)
            ptr += 1
    if ptr < n_ctrl:
        return MISPUNCH, ...
    legs = torch.diff(torch.stack(split_times), prepend=zero)
    index = legs / pace(leg_km)                  # ... so here there are n_ctrl of them

The stacked splits have a data-dependent number of rows ``u``; ``legs / pace`` broadcasts them
against ``n_ctrl`` rows, and torch, tracing the branch inside torch.cond, must know whether
``u == n_ctrl``: "Could not guard on data-dependent expression Eq(u1, s91)". Eager broadcasts the
two where the sizes are equal or ``u`` is 1, and raises otherwise, so the branch is traced again
reading its values of ``u`` rows as ``n_ctrl`` rows: rows ``0 .. n_ctrl - 1`` clamped to the last
one. That changes nothing where the sizes are equal and repeats the one row where there is one, as
the broadcast does; the verification runs the branches as usual.
"""

from __future__ import annotations

import re
import types

import torch

from deploy.rewriters.size_clamps import rebound
from deploy.rewriters.values import StackedList, as_tensor_value

_EQUAL = re.compile(r"data-dependent expression .*?\(unhinted: Eq\((\w+), (\w+)\)\)")


def matched_branches(exc: BaseException, then_fn, else_fn):
    """``(then_fn, else_fn)`` with the one branch holding values of the unbacked size the failed
    guard in ``exc`` equates to another size reading them resized to it; None otherwise."""
    found = _EQUAL.search(str(exc))
    if found is None:
        return None
    unbacked, other = found.groups()
    if not unbacked.startswith("u"):  # `Eq(s7, u1)`: the unbacked size on either side
        unbacked, other = other, unbacked
    if not unbacked.startswith("u"):
        return None
    sizes = {}
    for fn in (then_fn, else_fn):
        _collect_sizes(fn, sizes, set())
    symbol = next((s for s in sizes.values() if str(s.node.expr) == unbacked), None)
    target = next((s for s in sizes.values() if str(s.node.expr) == other), None)
    if symbol is None or target is None:
        return None
    expr = symbol.node.expr
    own = [_reads(fn, expr, set()) for fn in (then_fn, else_fn)]
    if own.count(True) != 1:  # neither, or both: which branch needs the sizes equal is unclear
        return None
    # both change: the other branch only where it probes this one for shapes (branch_placeholders)
    with symbol.node.shape_env.suppress_guards():
        changed = [rebound(fn, lambda v: _resized(v, expr, target)) for fn in (then_fn, else_fn)]
    return tuple(changed)


def _resized(value: object, expr, target: torch.SymInt) -> object:
    """``value`` with each dim of size ``expr`` read at positions ``0 .. target - 1`` clamped to its
    last entry (a zero entry where it has none): itself where the sizes are equal, its one entry
    repeated where it has one (as eager broadcasts it); a size ``expr`` itself is ``target``."""
    if isinstance(value, torch.SymInt):
        return target if value.node.expr == expr else value
    if not isinstance(value, torch.Tensor) or isinstance(value, torch.nn.Parameter):
        return value
    out = value
    for dim, size in enumerate(value.shape):
        if not (isinstance(size, torch.SymInt) and size.node.expr == expr):
            continue
        extra = list(out.shape)
        extra[dim] = 1
        padded = torch.cat([out, out.new_zeros(extra)], dim)
        last = (as_tensor_value(size).reshape(()).to(torch.int64) - 1).clamp(min=0)
        out = padded.index_select(dim, torch.minimum(torch.arange(target, device=out.device), last))
    return out


def _reads(value: object, expr, seen: set) -> bool:
    """``value``'s own code reaches a tensor with a dim of size ``expr`` (not counting what a branch
    wrapper only probes for shapes)."""
    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, types.FunctionType):
        probed = getattr(value, "_deploy_probed_only", ())
        cells = zip(value.__code__.co_freevars, value.__closure__ or ())
        return any(_reads(_contents(cell), expr, seen) for name, cell in cells if name not in probed)
    if isinstance(value, (tuple, list)):
        return any(_reads(item, expr, seen) for item in value)
    if isinstance(value, StackedList):
        return _reads(value.stacked, expr, seen)
    if isinstance(value, torch.Tensor):
        return any(isinstance(size, torch.SymInt) and size.node.expr == expr for size in value.shape)
    return False


def _contents(cell) -> object:
    try:
        return cell.cell_contents
    except ValueError:  # not assigned yet
        return None


def _collect_sizes(value: object, sizes: dict, seen: set) -> None:
    """Every symbolic size (a SymInt, or a tensor's dim) ``value`` reaches through closures,
    tuples, lists and a converted loop's lists, by its expression's text."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, types.FunctionType):
        for cell in value.__closure__ or ():
            _collect_sizes(_contents(cell), sizes, seen)
    elif isinstance(value, (tuple, list)):
        for item in value:
            _collect_sizes(item, sizes, seen)
    elif isinstance(value, StackedList):
        _collect_sizes(value.stacked, sizes, seen)
    elif isinstance(value, torch.SymInt):
        sizes.setdefault(str(value.node.expr), value)
    elif isinstance(value, torch.Tensor):
        for size in value.shape:
            if isinstance(size, torch.SymInt):
                sizes.setdefault(str(size.node.expr), size)


def matched_cond(exc: BaseException, pred, then_fn, else_fn, cond):
    """``cond(pred, then, else)`` retried with matched branches while it fails on such a guard (a
    few times: each list may need its own); ``(result, then, else)`` or None."""
    for _ in range(3):
        matched = matched_branches(exc, then_fn, else_fn)
        if matched is None:
            return None
        then_fn, else_fn = matched
        try:
            return cond(pred, then_fn, else_fn), then_fn, else_fn
        except Exception as again:  # torch raises many internal types; the caller's fallbacks follow
            exc = again
    return None
