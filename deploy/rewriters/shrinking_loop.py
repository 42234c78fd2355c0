"""`while` loops whose carried tensors get shorter (merging, popping, pruning):

    while bool((ranks < NO_MERGE).any()):
        p = int(torch.argmin(ranks))
        ids = torch.cat([ids[:p], merged, ids[p + 2 :]])     # one entry fewer every iteration
        ranks = pair_ranks(ids)

torch.while_loop carries values of one shape. A probe of one iteration (traced, its nodes dead) tells
which carried values change shape: each must change along some dims (one for a merge, height and
width for a pyramid level ``x = avg_pool2d(x, 2)`` under ``while x.shape[-1] >= 8``), to sizes not
larger than before. Such a value is carried as a buffer of its size before the loop and its current
length along each such dim; the test and the body see the buffer's first ``length`` entries (an
unbacked size inside the loop), and what the body returns is written back into the buffer's first
entries. ``graph_while`` is the fallback for every graph `while` loop, also those that collect
appended values (buffered_while.py). After the loop the value is the
buffer's first ``length`` entries: a data-dependent size, as eagerly. A value that grows past its size
before the loop on some input fails the loop's size check at run time (verification reports it).
"""

from __future__ import annotations

import torch
from torch._higher_order_ops.while_loop import while_loop
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters import operators, trace_state
from deploy.rewriters.growing_loop import _length, changed_dims, size_tensor
from deploy.rewriters.loop_common import _as_loop_body_probe, clone_all, in_loop_body
from deploy.rewriters.shape_cond import same_shape
from deploy.rewriters.values import as_predicate, as_tensor_value


def shrunk_while(while_loop, graph_cond, graph_body, carried: tuple):
    """``while_loop`` over ``carried`` with the values that shrink carried as buffers and lengths;
    the loop's values, or None when they change otherwise (the caller shows the first error)."""
    if torch.compiler.is_dynamo_compiling() or trace_state.TRACE_STATE.in_loop_body:
        return None
    try:
        shrinking = shrinking_dims(graph_body, carried)
        if not shrinking:
            return None
        pairs = [(p, d) for p, dims in shrinking.items() for d in dims]
        lengths = tuple(size_tensor(carried[p].shape[d]) for p, d in pairs)
        count = len(carried)

        def current(values: tuple) -> list:
            out = list(values[:count])
            for (position, dim), length in zip(pairs, values[count:]):
                out[position] = out[position].narrow(dim, 0, _length(length, 0, out[position].shape[dim]))
            return out

        def cond(*values):
            return as_predicate(graph_cond(*current(values))).clone()

        def body(*values):
            new = [as_tensor_value(v) for v in graph_body(*current(values))]
            sizes = []
            for position, dims in shrinking.items():
                buffer, value = values[position], new[position]
                for dim in dims:
                    torch._check(value.shape[dim] <= buffer.shape[dim])
                    sizes.append(size_tensor(value.shape[dim]))
                new[position] = _written_back(buffer, value, dims)
            return clone_all((*new, *sizes))

        result = in_loop_body(while_loop, cond, body, (*carried, *lengths))
    except Exception:  # torch's many internal error types: the caller shows the loop's first error
        return None
    return tuple(current(tuple(result)))


def _written_back(buffer: torch.Tensor, value: torch.Tensor, dims: list[int]) -> torch.Tensor:
    """``value`` in the first entries of ``buffer`` along ``dims`` (the rest: zeros when several dims
    shrink, the buffer's old entries when one does)."""
    if len(dims) == 1:
        positions = torch.arange(value.shape[dims[0]], dtype=torch.int64)
        return buffer.index_copy(dims[0], positions, value)
    amounts = []
    for dim in reversed(range(value.dim())):
        amounts += [0, buffer.shape[dim] - value.shape[dim] if dim in dims else 0]
    return torch.nn.functional.pad(value, amounts)


def shrinking_dims(graph_body, carried: tuple) -> dict[int, list[int]]:
    """{carried position: dims} for the values one probed iteration makes shorter along some dims
    (a pyramid level pooled along height and width); empty when some value changes otherwise
    (dtype, rank, a growth)."""
    with _as_loop_body_probe():
        new_values = [as_tensor_value(v) for v in graph_body(*operators.fresh_copies(tuple(carried)))]
    dims = {}
    for position, (old, new) in enumerate(zip(carried, new_values)):
        if not isinstance(new, torch.Tensor) or same_shape(old, new):
            continue
        changed = changed_dims(old, new)
        if not changed or not all(_not_larger(new.shape[d], old.shape[d]) for d in changed):
            return {}
        dims[position] = changed
    return dims


def _not_larger(new, old) -> bool:
    """False when ``new`` is surely larger; sizes torch cannot compare (data-dependent ones, as
    ``ids[:p]`` gives) are checked when the loop runs."""
    if isinstance(new, int) and isinstance(old, int):
        return new <= old
    return not statically_known_true(new > old)


def graph_while(graph_cond, graph_body, carried: tuple) -> tuple:
    """``torch.while_loop`` over ``carried`` (in_loop_body), or, when torch refuses it because some
    values change shape, over those values carried as buffers and lengths; the first error when
    neither works."""
    try:
        return tuple(in_loop_body(while_loop, graph_cond, graph_body, carried))
    except Exception as exc:  # torch's many internal error types
        result = shrunk_while(while_loop, graph_cond, graph_body, carried)
        if result is None:
            raise exc from None
        return result
