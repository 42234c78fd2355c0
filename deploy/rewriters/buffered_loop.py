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

from deploy.rewriters.operators import fresh_copies
from deploy.rewriters.values import StackedList, as_predicate, as_tensor_value


def buffered_for(start, stop, step, body_fn, carried, accumulators, break_index, run, site):
    """Remaining iterations of ``range(start, stop, step)`` as a while_loop with buffers; returns
    (carried values, lists). ``start``/``step`` are Python ints; ``stop`` a Python int or an
    unbacked SymInt (a `.item()` trip count). ``run`` wraps the higher-order op call."""
    symbolic = isinstance(stop, torch.SymInt)
    examples = [acc[-1] if acc else None for acc in accumulators]
    if any(not isinstance(e, torch.Tensor) for e in examples):
        if break_index >= 0:
            raise site.error(
                "this loop appends to a list and may `break` on a tensor value before any value is known: "
                "append to a preallocated tensor instead (out[:, t] = value)"
            )
        carried, examples = _peel(start, stop, step, body_fn, carried, accumulators)
        start += step
    remaining = _trip_count(start, stop, step) if symbolic else len(range(start, stop, step))
    if not symbolic and remaining == 0:
        return tuple(carried), accumulators
    size = len(carried)
    buffers = [torch.zeros((remaining, *e.shape), dtype=e.dtype) for e in examples]
    # an unbacked bound is carried as a 0-d tensor: while_loop's cond cannot close over it
    limit = (as_tensor_value(stop).to(torch.int64).reshape(()).clone(),) if symbolic else ()
    initial = (
        torch.full((), start, dtype=torch.int64),
        torch.zeros((), dtype=torch.int64),
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
            return more
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
        return (index + step, count + 1, *(b.clone() for b in bound), *cloned, *new_buffers)

    result = run(while_loop, graph_cond, graph_body, initial)
    buffers = result[skip + size :]
    if break_index >= 0:
        count = result[1].item()
        torch._check(count >= 0)
        torch._check(count <= remaining)
        buffers = [buffer.narrow(0, 0, count) for buffer in buffers]
    lists = tuple(StackedList(acc, buffer) for acc, buffer in zip(accumulators, buffers))
    return tuple(result[skip : skip + size]), lists


def _peel(start, stop, step, body_fn, carried, accumulators):
    """Run the first iteration outside the loop (the trip count must be at least 1)."""
    torch._check(stop > start if step > 0 else stop < start)
    new_values, appended = body_fn(start, *fresh_copies(tuple(carried)))
    for acc, value in zip(accumulators, appended):
        acc.append(as_tensor_value(value))
    carried = tuple(as_tensor_value(v) for v in new_values)
    return carried, [acc[-1] for acc in accumulators]


def _trip_count(start, stop, step):
    """len(range(start, stop, step)) for an unbacked ``stop``, checked non-negative."""
    count = (stop - start + step - 1) // step if step > 0 else (start - stop - step - 1) // (-step)
    torch._check(count >= 0)
    return count
