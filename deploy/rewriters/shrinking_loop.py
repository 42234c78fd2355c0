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

import math

import torch
from torch._higher_order_ops.while_loop import while_loop
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters import operators, trace_state
from deploy.rewriters.growing_loop import _length, changed_dims, size_tensor
from deploy.rewriters.loop_common import _as_loop_body_probe, clone_all, in_loop_body
from deploy.rewriters.shape_cond import same_shape
from deploy.rewriters.values import as_predicate, as_tensor_value


def shrunk_while(while_loop, graph_cond, graph_body, carried: tuple, trips: int | None = None):
    """``while_loop`` over ``carried`` with the values that shrink carried as buffers and lengths;
    the loop's values, or None when they change otherwise (the caller shows the first error).
    ``trips``: the most iterations the loop can run (a Python step counter's bound), which sizes
    the buffers of values that may grow (growing_room)."""
    if torch.compiler.is_dynamo_compiling() or trace_state.TRACE_STATE.in_loop_body:
        return None
    try:
        shrinking, new_values = shrinking_dims(graph_body, carried)
        if not shrinking:
            return None
        pairs = [(p, d) for p, dims in shrinking.items() for d in dims]
        lengths = tuple(size_tensor(carried[p].shape[d]) for p, d in pairs)
        if trips is not None:
            carried = growing_room(carried, new_values, pairs, trips)
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


def shrinking_dims(graph_body, carried: tuple) -> tuple[dict[int, list[int]], list]:
    """{carried position: dims} for the values one probed iteration makes shorter along some dims
    (a pyramid level pooled along height and width), or may make longer by a data-dependent amount;
    empty when some value changes otherwise (dtype, rank, a surely larger size). Also the probed
    iteration's values."""
    with _as_loop_body_probe():
        new_values = [as_tensor_value(v) for v in graph_body(*operators.fresh_copies(tuple(carried)))]
    dims = {}
    for position, (old, new) in enumerate(zip(carried, new_values)):
        if not isinstance(new, torch.Tensor) or same_shape(old, new):
            continue
        changed = changed_dims(old, new)
        if not changed or not all(_not_larger(new.shape[d], old.shape[d]) for d in changed):
            return {}, new_values
        dims[position] = changed
    return dims, new_values


def growing_room(carried: tuple, new_values: list, pairs: list, trips: int) -> tuple:
    """``carried`` with room to grow along each (position, dim) whose probed size may exceed the
    size before the loop (``x = torch.cat([x, midpoints[flags]])[order]`` while refining a mesh, at
    most ``trips`` times): zeros appended up to the largest size the sizes' ranges allow after
    ``trips`` iterations growing by the same factor as the probed one (from the largest size
    before the loop to the largest after one iteration). A size without a finite bound keeps its
    size before the loop, which a value growing past it fails at run time."""
    out = list(carried)
    for position, dim in pairs:
        old, new = out[position].shape[dim], new_values[position].shape[dim]
        if statically_known_true(new <= old):
            continue
        before, after = _largest(old), _largest(new)
        if before is None or after is None or after <= before or before <= 0:
            continue
        room = min(math.ceil(before * (after / before) ** max(trips, 0)), _MOST_ROWS)
        if room <= before:
            continue
        value = out[position]
        torch._check(room - old >= 0)
        padding = value.new_zeros((*value.shape[:dim], room - old, *value.shape[dim + 1 :]))
        out[position] = torch.cat([value, padding], dim)
    return tuple(out)


_MOST_ROWS = 1 << 20  # a buffer's largest size along a growing dim


def _largest(size) -> int | None:
    """The largest value ``size`` can take (its range's upper bound), None when unbounded."""
    if isinstance(size, int) and not isinstance(size, torch.SymInt):
        return size
    try:
        upper = size.node.shape_env.bound_sympy(size.node.expr).upper
        return int(upper) if upper.is_finite else None
    except (TypeError, AttributeError, OverflowError, ValueError):
        return None


def _not_larger(new, old) -> bool:
    """False when ``new`` is surely larger; sizes torch cannot compare (data-dependent ones, as
    ``ids[:p]`` gives) are checked when the loop runs."""
    if isinstance(new, int) and isinstance(old, int):
        return new <= old
    return not statically_known_true(new > old)


def graph_while(graph_cond, graph_body, carried: tuple, trips: int | None = None) -> tuple:
    """``torch.while_loop`` over ``carried`` (in_loop_body), or, when torch refuses it because some
    values change shape, over those values carried as buffers and lengths (``trips``: the most
    iterations, when known); the first error when neither works."""
    try:
        return tuple(in_loop_body(while_loop, graph_cond, graph_body, carried))
    except Exception as exc:  # torch's many internal error types
        result = shrunk_while(while_loop, graph_cond, graph_body, carried, trips)
        if result is None:
            raise exc from None
        return result
