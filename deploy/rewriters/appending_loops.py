"""The loops among ``for_range``'s graph loops that append to lists (or test their bound's
kind): a ``.item()`` or break-bounded loop filling preallocated buffers (buffered_loop.py) and a
loop whose trip count may be 0 or 1 (chunked_loop.counted_for), each failure named at the user's
loop."""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

from deploy.errors import NotDeployableError
from deploy.rewriters import sites, trace_state
from deploy.rewriters.buffered_loop import buffered_for
from deploy.rewriters.chunked_loop import counted_for, probe_examples
from deploy.rewriters.loop_common import in_loop_body, loop_error
from deploy.rewriters.values import StackedList, is_sym_int


def data_bound(start: object, stop: object) -> bool:
    """A loop bound that is a tensor value at the top level of the exported program (not inside
    another graph op's body, where `.item()` cannot be traced)."""
    if not isinstance(start, int) or torch.compiler.is_dynamo_compiling():
        return False
    if isinstance(stop, torch.Tensor):
        # a float one holds a whole number: eager's was an int (`round(t.item() * fps)`, which the
        # converted model computes as a 0-d tensor), as `range` takes no float
        return stop.numel() == 1 and stop.dtype != torch.bool
    return isinstance(stop, torch.SymInt) and bool(free_unbacked_symbols(stop))


def buffered_bound(start, stop, step, accumulators, break_index: int):
    """The bound of the append loops that become a buffered while_loop before any other choice
    (loop_operators._graph_for), else None."""
    if not accumulators:
        return None
    if data_bound(start, stop):
        # `for i in range(int(k.item())): acc.append(...)`: a buffered while_loop over an unbacked count
        if isinstance(stop, torch.Tensor):
            stop = stop.reshape(()).to(torch.int64).item()
        if step == 1 and isinstance(stop, torch.SymInt):
            # range(n < 0) runs nothing, also where a select computes the branch (`if n <= 0: return`);
            # a probe suppresses trip_count's torch._check, so the buffer must not be sized n - start
            stop = torch.sym_max(stop, start)
        return stop
    if not is_sym_int(stop) or not trace_state.in_loop_body_now():
        return None
    if break_index < 0:
        # a scan nested in a while_loop body does not translate to ONNX (torch 2.13's inliner fails
        # on the nested Scan): the inner append loop becomes a buffered while_loop instead
        return stop
    if torch.compiler.is_dynamo_compiling() and step == 1 and isinstance(start, int):
        # a `break` in a loop over a size inside a graph loop's body: buffers of the size itself, at
        # least start (no guard). (In a cond's branch, not: a size branch's test is no fact there, so
        # its other reads would guard; refused, the branch becomes a select instead)
        return torch.sym_max(stop, start)
    return None


def unbacked(value: object, inside_scan: bool) -> bool:
    if isinstance(value, torch.SymInt):
        return bool(free_unbacked_symbols(value))
    # inside a graph-op body (traced by dynamo, where free symbols cannot be inspected) a symbolic
    # bound becomes a carried tensor for while_loop; a scan takes the size itself (arange over it)
    return is_sym_int(value) and not inside_scan


def buffered(
    start,
    stop,
    step,
    body_fn,
    carried,
    accumulators,
    names,
    site,
    break_index,
    pending=None,
    skip_index=-1,
):
    item_bound = isinstance(stop, torch.SymInt) and isinstance(start, int)
    if not item_bound and not all(isinstance(b, int) for b in (start, stop, step)):
        raise site.error(
            "this loop appends to a list and may `break` on a tensor value, so the number of appended "
            "values is unknown: append to a preallocated tensor instead (out[:, t] = value)"
        )
    examples = None
    if item_bound and pending is None and any(not acc for acc in accumulators):
        # a `.item()` trip count may be 0: the buffers are sized from a probe of one iteration
        # rather than by running the first one before the loop
        examples = probe_examples(start, body_fn, carried, accumulators)
    rest = (break_index, in_loop_body, pending, skip_index, examples)
    return _emitted(
        site, names, lambda: buffered_for(start, stop, step, body_fn, carried, accumulators, *rest)
    )


def counted(start, stop, step, body_fn, carried, accumulators, names, site, loop=counted_for):
    return _emitted(
        site, names, lambda: loop(start, stop, step, body_fn, carried, accumulators, in_loop_body)
    )


def _emitted(site, names, build):
    """``build()`` (the graph loop), recorded as the site's while_loop; torch's failures as one
    line naming the user's loop."""
    try:
        result = build()
    except NotDeployableError:
        raise
    except Exception as exc:  # torch's many internal error types -> one line naming the user's loop
        raise loop_error(site, exc, names) from exc
    sites.mark_emitted(site.id, "for->while_loop")
    return result


def prepended(values: object, size: int) -> object:
    """A list the loop grew with ``insert(0, v)``, from one it grew by appending to (``size``
    values were there before the loop): the loop's values reversed, then the earlier ones."""
    if isinstance(values, StackedList):
        earlier = list(reversed(values.prefix[size:])) + values.prefix[:size]
        return StackedList([], values.stacked.flip(0), earlier + values.suffix)
    return list(reversed(values[size:])) + list(values[:size])
