"""Loop-carried tensors that grow by a fixed amount every iteration (greedy decoding):

    seq = prompt
    for _ in range(int(max_new.item())):
        tok = step(seq[:, -1])
        seq = torch.cat([seq, tok[:, None]], 1)     # one column more per iteration
        if (tok == eos).all():
            break

torch.while_loop carries values of one shape. A probe of one iteration (traced, its nodes dead)
tells which carried values change shape: each must grow along one dim by a constant ``k``. Such a
value is carried as a buffer of its largest size (its size now plus ``k`` per remaining iteration)
and its current length; the body sees the buffer's first ``length`` entries (an unbacked size inside
the loop body), and what it returns is written back into the buffer. After the loop the value is
the buffer's first ``length`` entries: a data-dependent size, as eagerly.
"""

from __future__ import annotations

import torch

from deploy.errors import NotDeployableError
from deploy.rewriters import sites, trace_state
from deploy.rewriters.buffered_loop import trip_count
from deploy.rewriters.loop_common import carry, probe_iteration, sizes_kept
from deploy.rewriters.shape_cond import same_shape, same_size
from deploy.rewriters.values import as_tensor_value, is_tracing


def grown_for(graph_for, start, stop, step, body_fn, args, accumulators, names, site_id, break_index):
    """``graph_for`` (loop_operators._graph_for) over the loop with its growing values carried as
    buffers and lengths; (values, lists), or None when the loop's values do not grow that way or the
    loop still fails (the caller shows its first error)."""
    if accumulators or torch.compiler.is_dynamo_compiling() or trace_state.TRACE_STATE.in_loop_body:
        return None
    if isinstance(step, torch.Tensor) or not isinstance(start, int):
        return None
    try:
        carried = carry(args, names, sites.get_site(site_id))
        growth = growth_of(start, body_fn, carried)
        if growth is None:
            return None
        if isinstance(stop, torch.Tensor):
            stop = stop.reshape(()).to(torch.int64).item()
        buffers, lengths = as_buffers(carried, growth, iterations_left(start, stop, step))
        minimum = lower_bounds(carried, growth)
        body = wrap_body(body_fn, growth, len(carried), minimum)
        extra = tuple(f"_deploy_length_{p}" for p in growth)
        values, lists = graph_for(
            start, stop, step, body, buffers + lengths, accumulators, names + extra, site_id, break_index
        )
    except Exception:  # torch's many internal error types, and our own: the first error is shown
        return None
    return unwrap(values, growth, len(carried), minimum), lists


def growth_of(start, body_fn, carried: tuple) -> dict[int, tuple[int, int]] | None:
    """{carried position: (dim, growth per iteration)} for the values one iteration changes in
    shape; None when some value changes otherwise (dtype, rank, several dims, a shrink)."""
    new_values = probe_iteration(start, body_fn, carried)[0]
    growth = {}
    for position, (old, new) in enumerate(zip(carried, new_values)):
        if not isinstance(new, torch.Tensor) or same_shape(old, new):
            continue
        dim = changed_dim(old, new)
        step = None if dim is None else _static(new.shape[dim] - old.shape[dim])
        if step is None or step <= 0:
            return None
        growth[position] = (dim, step)
    return growth or None


def changed_dim(old: torch.Tensor, new: torch.Tensor) -> int | None:
    """The one dim along which ``new`` differs in size from ``old``; None when the dtype or rank
    differs too, or several dims do."""
    dims = changed_dims(old, new)
    return dims[0] if len(dims) == 1 else None


def changed_dims(old: torch.Tensor, new: torch.Tensor) -> list[int]:
    """The dims along which ``new`` differs in size from ``old``; empty when the dtype or rank differs."""
    if new.dtype != old.dtype or new.dim() != old.dim():
        return []
    return [d for d in range(old.dim()) if not same_size(old.shape[d], new.shape[d])]


def size_tensor(size) -> torch.Tensor:
    """A size (int or symbolic) as a 0-d int64 tensor, as a graph loop carries it."""
    return torch.full((), 1, dtype=torch.int64) * size


def iterations_left(start, stop, step) -> object:
    """len(range(start, stop, step)) for Python ints or an unbacked ``stop``."""
    if all(isinstance(b, int) for b in (start, stop, step)):
        return len(range(start, stop, step))
    return trip_count(start, stop, step)


def as_buffers(carried: tuple, growth: dict, iterations) -> tuple[tuple, tuple]:
    """The carried values with each growing one replaced by its full-size buffer, and the lengths."""
    values, lengths = list(carried), []
    for position, (dim, step) in growth.items():
        value = carried[position]
        shape = list(value.shape)
        shape[dim] = value.shape[dim] + step * iterations
        buffer = value.new_zeros(shape)
        positions = torch.arange(value.shape[dim], dtype=torch.int64)
        values[position] = buffer.index_copy(dim, positions, value)
        lengths.append(size_tensor(value.shape[dim]))
    return tuple(values), tuple(lengths)


def wrap_body(body_fn, growth: dict, carried_count: int, minimum: dict):
    """A body over (buffers..., lengths...) that runs ``body_fn`` on the current values."""

    def body(index, *values):
        values, lengths = list(values[:carried_count]), values[carried_count:]
        buffers = dict(zip(growth, (values[p] for p in growth)))
        for (position, (dim, _)), length in zip(growth.items(), lengths):
            size = _length(length, minimum[position], buffers[position].shape[dim])
            values[position] = buffers[position].narrow(dim, 0, size)
        new_values, appended = body_fn(index, *values)
        new_values, new_lengths = list(new_values), []
        for position, (dim, _) in growth.items():
            value = as_tensor_value(new_values[position])
            positions = torch.arange(value.shape[dim], dtype=torch.int64)
            new_values[position] = buffers[position].index_copy(dim, positions, value)
            new_lengths.append(size_tensor(value.shape[dim]))
        return (*new_values, *new_lengths), appended

    return body


def unwrap(values: tuple, growth: dict, carried_count: int, minimum: dict) -> tuple:
    """The loop's results with each buffer cut to its final length."""
    out, lengths = list(values[:carried_count]), values[carried_count:]
    for (position, (dim, _)), length in zip(growth.items(), lengths):
        size = _length(length, minimum[position], out[position].shape[dim])
        out[position] = out[position].narrow(dim, 0, size)
    return tuple(out)


def lower_bounds(carried: tuple, growth: dict) -> dict[int, int]:
    """Each growing value's smallest size before the loop (it never shrinks below it)."""
    bounds = {}
    for position, (dim, _) in growth.items():
        size = carried[position].shape[dim]
        if isinstance(size, int):
            bounds[position] = size
            continue
        low = size.node.shape_env.bound_sympy(size.node.expr).lower
        bounds[position] = max(0, int(low)) if low.is_finite else 0
    return bounds


def _static(value) -> int | None:
    """``value`` as a Python int when it is one or a symbolic expression that simplifies to one."""
    if isinstance(value, int):
        return value
    expr = value.node.expr if isinstance(value, torch.SymInt) else None
    return int(expr) if expr is not None and expr.is_number else None


def _length(length: torch.Tensor, low: int, high) -> object:
    size = length.item()
    torch._check(size >= low)
    torch._check(size <= high)
    return size


def graph_or_grown(graph_for, start, stop, step, body_fn, args, accumulators, names, site_id, break_index):
    """``graph_for`` (loop_operators._graph_for); when its while_loop fails, the same loop with
    growing values carried as buffers and lengths (grown_for), if that is what failed it; then with
    the data-dependent sizes of its values kept (loop_common.sizes_kept)."""
    rest = (args, accumulators, names, site_id, break_index)
    try:
        return graph_for(start, stop, step, body_fn, *rest)
    except NotDeployableError:
        grown = grown_for(graph_for, start, stop, step, body_fn, *rest)
        if grown is not None:
            return grown
        if not is_tracing():
            raise
        try:
            return graph_for(start, stop, step, sizes_kept(body_fn), *rest)
        except Exception:  # torch's many internal error types: the first error is shown
            pass
        raise
