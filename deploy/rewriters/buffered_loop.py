"""`for` loops that append to lists where the number of appended values is only known at run time:

    for _ in range(max_len):                 for i in range(int(k.item())):
        tok = step(tok)                          state = cell(state, i)
        tokens.append(tok)                       states.append(state)
        if (tok == eos).all():               torch.stack(states)
            break

Left: the iterations run as plain Python until the break flag turns into a tensor; the rest become
a ``while_loop``. Right: the trip count is a tensor value (an unbacked size while exporting); the
first iteration is peeled to learn the appended values' shapes (``torch.stack`` of an empty list
fails eagerly too) and the rest run in a ``while_loop``. Either way each appended value is written
into a preallocated buffer of the remaining length and counted; after the loop the list is the
Python prefix plus the first ``count`` buffer rows, a data-dependent length (an unbacked size in
the exported graph, a dynamic dim in ONNX).
"""

from __future__ import annotations

import torch
from torch._higher_order_ops.while_loop import while_loop
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters.operators import fresh_copies
from deploy.rewriters.values import StackedList, as_predicate, as_tensor_value, is_sym_int


def buffered_for(
    start,
    stop,
    step,
    body_fn,
    carried,
    accumulators,
    break_index,
    run,
    pending=None,
    skip_index=-1,
    examples=None,
):
    """Remaining iterations of ``range(start, stop, step)`` as a while_loop with buffers; returns
    (carried values, lists). ``start``/``step`` are Python ints; ``stop`` a Python int, an unbacked
    SymInt (a `.item()` trip count) or, inside another loop's body, a dynamic size. ``run`` wraps
    the higher-order op call. ``skip_index``: the carried flag that says an iteration appended
    nothing (the appends follow a `break`; -1: every iteration appends); ``pending``: (values,
    flag) of an iteration already run whose appends happened only if that flag is false.
    ``examples``: values shaped like those an iteration appends (default: the lists' last values,
    else the first iteration is peeled)."""
    symbolic = is_sym_int(stop)
    if examples is None:
        # a Python number appended before (a keep flag True in a plain-Python iteration) shapes its
        # buffer as a 0-d tensor: no iteration is peeled for it
        examples = [_example(acc[-1]) if acc else None for acc in accumulators]
    total = trip_count(start, stop, step) if symbolic else len(range(start, stop, step))
    first, count0, padded = (), 0, False
    if pending is not None:
        first = [as_tensor_value(v) for v in pending[0]]
        if any(not isinstance(v, torch.Tensor) for v in first):
            raise TypeError("a value appended after a tensor `break` is not a tensor")
        examples, count0 = first, torch.logical_not(as_predicate(pending[1])).to(torch.int64)
        total = total + 1
    elif any(not isinstance(e, torch.Tensor) for e in examples):
        # the first iteration runs before the loop; its values size the buffers and fill row 0 (a
        # `break` it takes ends the loop at once: the flag is carried and tested by the loop)
        # iterations run before (plain Python) may have broken already: the peeled one then counts
        # for nothing and leaves the carried values as they were
        before = tuple(carried)
        broken = as_predicate(as_tensor_value(before[break_index])) if break_index >= 0 else None
        # a size that may run no iteration (a loop in a size branch's body, traced at sizes it is
        # never taken at): the peeled iteration then counts for nothing either, in a row of its own
        empty = symbolic and step > 0 and not statically_known_true(stop > start)
        if empty:
            none_run = as_tensor_value(stop <= start)
            broken = none_run if broken is None else torch.logical_or(broken, none_run)
            total, padded = total + 1, True
        carried, first = _peel(start, stop, step, body_fn, carried, len(accumulators), checked=not empty)
        examples, count0 = first, 1
        if skip_index >= 0:
            count0 = torch.logical_not(as_predicate(as_tensor_value(carried[skip_index]))).to(torch.int64)
        if isinstance(broken, torch.Tensor):
            # (as_tensor_value: torch.as_tensor(1) in a graph op's body is a lifted constant, which
            # torch.onnx's decompositions refuse)
            count0 = torch.logical_and(torch.logical_not(broken), as_tensor_value(count0).bool()).to(
                torch.int64
            )
            carried = tuple(_kept_if(broken, old, new) for old, new in zip(before, carried))
        start += step
    elif not symbolic and total == 0:
        return tuple(carried), accumulators
    size = len(carried)
    buffers = [torch.zeros((total, *e.shape), dtype=e.dtype) for e in examples]
    row0 = torch.zeros((1,), dtype=torch.int64)
    if first:
        buffers = [b.index_copy(0, row0, v.to(b.dtype).unsqueeze(0)) for b, v in zip(buffers, first)]
    # an unbacked bound is carried as a 0-d tensor: while_loop's cond cannot close over it
    limit = (as_tensor_value(stop).to(torch.int64).reshape(()).clone(),) if symbolic else ()
    initial = (
        torch.full((), start, dtype=torch.int64),
        count0 if isinstance(count0, torch.Tensor) else torch.full((), count0, dtype=torch.int64),
        *limit,
        *carried,
        *buffers,
    )
    skip = 2 + len(limit)

    def graph_cond(index, count, *rest):
        bound = rest[0] if limit else stop
        rest = rest[len(limit) :]
        more = index < bound if step > 0 else index > bound
        if break_index < 0:
            return more.clone() if isinstance(more, torch.Tensor) else more
        return torch.logical_and(more, torch.logical_not(as_predicate(rest[break_index])))

    def graph_body(index, count, *rest):
        bound, rest = rest[: len(limit)], rest[len(limit) :]
        values, old_buffers = rest[:size], rest[size:]
        new_values, appended = body_fn(index, *fresh_copies(values))
        new_buffers = [
            buffer.index_copy(0, count.reshape(1), as_tensor_value(value).to(buffer.dtype).unsqueeze(0))
            for buffer, value in zip(old_buffers, appended)
        ]
        cloned = tuple(as_tensor_value(v).clone() for v in new_values)
        added = 1
        if skip_index >= 0:  # the iteration that broke before its appends added no row
            added = torch.logical_not(as_predicate(cloned[skip_index])).to(torch.int64)
        return (index + step, count + added, *(b.clone() for b in bound), *cloned, *new_buffers)

    result = run(while_loop, graph_cond, graph_body, initial)
    buffers = result[skip + size :]
    if break_index >= 0 or padded:  # (padded: a row more than the iterations, for the peeled one)
        count = result[1].item()
        torch._check(count >= 0)
        torch._check(count <= total)
        buffers = [buffer.narrow(0, 0, count) for buffer in buffers]
    lists = tuple(StackedList(acc, buffer) for acc, buffer in zip(accumulators, buffers))
    return tuple(result[skip : skip + size]), lists


def _example(value):
    return as_tensor_value(value) if isinstance(value, (bool, int, float)) else value


def _kept_if(broken: torch.Tensor, old, new):
    """``old`` where the loop had already broken, else ``new`` (values of one shape and type)."""
    old, new = as_tensor_value(old), as_tensor_value(new)
    if not (isinstance(old, torch.Tensor) and isinstance(new, torch.Tensor)) or old.shape != new.shape:
        return new
    from deploy.rewriters.selects import _where  # (onnxruntime has no Where for bool)

    return _where(broken, old.to(new.dtype), new)


def _peel(start, stop, step, body_fn, carried, lists: int, checked: bool = True):
    """Run the first iteration outside the loop (the trip count must be at least 1 where
    ``checked``); returns the carried values after it and the values it appends."""
    if checked:
        torch._check(stop > start if step > 0 else stop < start)
    # unchecked, the index is a tensor: `x[t]` then reads clamped rather than guarding the size
    new_values, appended = body_fn(
        start if checked else as_tensor_value(start), *fresh_copies(tuple(carried))
    )
    carried = tuple(as_tensor_value(v) for v in new_values)
    return carried, [as_tensor_value(v) for v in appended][:lists]


def trip_count(start, stop, step):
    """len(range(start, stop, step)) for an unbacked ``stop``, checked non-negative."""
    count = (stop - start + step - 1) // step if step > 0 else (start - stop - step - 1) // (-step)
    torch._check(count >= 0)
    return count
