"""A static-length `for` loop that appends to lists and `break`s on a tensor (greedy decoding):

    for _ in range(max_len):
        tok = step(tok)
        tokens.append(tok)
        if (tok == eos).all():
            break

The iterations run as plain Python until the break flag turns into a tensor; the rest become a
``while_loop`` that writes each appended value into a preallocated buffer of the remaining length
and counts them. After the loop the list is the Python prefix plus the first ``count`` buffer rows,
a data-dependent length (an unbacked size in the exported graph, a dynamic dim in ONNX).
"""

from __future__ import annotations

import torch
from torch._higher_order_ops.while_loop import while_loop

from deploy.rewriters.operators import fresh_copies
from deploy.rewriters.values import StackedList, as_predicate, as_tensor_value


def buffered_for(start, stop, step, body_fn, carried, accumulators, break_index, run, site):
    """Remaining iterations of ``range(start, stop, step)`` (Python ints) as a while_loop with
    buffers; returns (carried values, lists). ``run`` wraps the higher-order op call."""
    remaining = len(range(start, stop, step))
    examples = [acc[-1] if acc else None for acc in accumulators]
    if any(not isinstance(e, torch.Tensor) for e in examples):
        raise site.error(
            "this loop appends to a list and may `break` on a tensor value before any value is known: "
            "append to a preallocated tensor instead (out[:, t] = value)"
        )
    if remaining == 0:
        return tuple(carried), accumulators
    size = len(carried)
    buffers = [torch.zeros((remaining, *e.shape), dtype=e.dtype) for e in examples]
    initial = (
        torch.full((), start, dtype=torch.int64),
        torch.zeros((), dtype=torch.int64),
        *carried,
        *buffers,
    )

    def graph_cond(index, count, *rest):
        more = index < stop if step > 0 else index > stop
        return torch.logical_and(more, torch.logical_not(as_predicate(rest[break_index])))

    def graph_body(index, count, *rest):
        values, old_buffers = rest[:size], rest[size:]
        new_values, appended = body_fn(index, *fresh_copies(values))
        new_buffers = [
            buffer.index_copy(0, count.reshape(1), as_tensor_value(value).to(buffer.dtype).unsqueeze(0))
            for buffer, value in zip(old_buffers, appended)
        ]
        cloned = tuple(as_tensor_value(v).clone() for v in new_values)
        return (index + step, count + 1, *cloned, *new_buffers)

    result = run(while_loop, graph_cond, graph_body, initial)
    count = result[1].item()
    torch._check(count >= 0)
    torch._check(count <= remaining)
    lists = tuple(
        StackedList(acc, buffer.narrow(0, 0, count)) for acc, buffer in zip(accumulators, result[2 + size :])
    )
    return tuple(result[2 : 2 + size]), lists
