"""A `while` loop on a tensor that appends to lists, bounded by a Python step counter:

    step = 0
    while step < self.max_len and not finished.all():
        ...
        logits_list.append(logits)
        step += 1

The pass (passes/loops.py) recognises the counter bound and hands a ``capacity`` function giving
the most iterations still possible (``max_len - step``). The loop runs as plain Python while its
test is a Python value; from the first tensor test on, a ``while_loop`` writes each appended value
into a buffer of that capacity and counts the iterations; the list is then the Python prefix plus
the first ``count`` rows (a data-dependent length, like greedy decoding with `for ... break`).

Without such a bound (``while pos < T: beats.append(pos); ...``), or with one that is not a Python
number (``while i < n`` over a dynamic size), nothing bounds the number of rows
before the loop has run, and a graph loop's values keep one shape. The loop then runs twice: a
``while_loop`` that only counts its iterations, then one of exactly that many iterations writing
each appended value into a buffer of that many rows. The body is a pure function of the loop's
values (graph-op bodies cannot have side effects), so both runs take the same steps; the cost is
the loop's compute twice.
"""

from __future__ import annotations

import torch

from deploy.rewriters import sites
from deploy.rewriters.loop_common import carry, python_while
from deploy.rewriters.operators import fresh_copies
from deploy.rewriters.shrinking_loop import graph_while
from deploy.rewriters.values import (
    StackedList,
    as_predicate,
    as_tensor_value,
    check_size,
    is_sym_int,
    is_symbolic,
)


def _probe_appended(body_fn, carried: tuple) -> list[torch.Tensor]:
    """The values one iteration would append (traced with guards suppressed; the nodes are dead)."""
    mode = None if torch.compiler.is_dynamo_compiling() else torch._guards.detect_fake_mode()
    if mode is None or mode.shape_env is None:
        _, appended = body_fn(*fresh_copies(carried))
    else:
        with mode.shape_env.suppress_guards():
            _, appended = body_fn(*fresh_copies(carried))
    return [as_tensor_value(v) for v in appended]


def buffered_while(cond_fn, body_fn, args: tuple, lists: tuple, capacity, site_id: int, names: tuple):
    """``while cond: body`` with appends; returns (carried values, lists)."""
    # a list an earlier graph op filled (its length may be data-dependent) stays one, its rows first
    lists = tuple(acc if isinstance(acc, StackedList) else list(acc) for acc in lists)

    def step(values: tuple) -> tuple:
        values, appended = body_fn(*values)
        for acc, value in zip(lists, appended):
            acc.append(value)
        return values

    args, finished = python_while(cond_fn, step, args, site_id)
    if finished:
        return args, lists
    site = sites.get_site(site_id)
    room = capacity(*args)
    if room is None or not isinstance(room, int) or is_symbolic(room):
        # no bound, or one that is a size or a tensor (`while i < n` over a dynamic n): counted first
        return _count_then_fill(cond_fn, body_fn, args, lists, site_id, names)
    carried = carry(args, names, site)
    size = len(carried)
    examples = [acc[-1] if isinstance(acc, list) and acc else None for acc in lists]
    if any(not isinstance(e, torch.Tensor) for e in examples):
        examples = _probe_appended(body_fn, carried)
    room = max(room, 0)
    buffers = [_buffer(room, e) for e in examples]

    def graph_cond(count, *rest):
        test = as_predicate(as_tensor_value(cond_fn(*rest[:size])))
        return torch.logical_and(count < room, test)

    def graph_body(count, *rest):
        return (count + 1, *_step_into_buffers(body_fn, count, rest, size))

    result = graph_while(
        graph_cond, graph_body, (torch.zeros((), dtype=torch.int64), *carried, *buffers), room
    )
    total = result[0].item()
    torch._check(total >= 0)
    torch._check(total <= room)
    stacked = tuple(
        StackedList(acc, _rows(buffer, total, e))
        for acc, buffer, e in zip(lists, result[1 + size :], examples)
    )
    sites.mark_emitted(site_id, "while->while_loop")
    return tuple(result[1 : 1 + size]), stacked


def _step_into_buffers(body_fn, count, rest: tuple, size: int) -> tuple:
    """One iteration: the loop's ``size`` values run through the body, and what it appends written
    into row ``count`` of the buffers that follow them in ``rest``."""
    values, old_buffers = rest[:size], rest[size:]
    new_values, appended = body_fn(*fresh_copies(values))
    new_buffers = [
        _written(buffer, count, as_tensor_value(value)) for buffer, value in zip(old_buffers, appended)
    ]
    return (*(as_tensor_value(v).clone() for v in new_values), *new_buffers)


# Rows with a size only known at run time (the peers a nested loop found, padded to their number)
# go into a flat buffer: carried as (rows, n, k), its stride n * k, index_copy's result has stride
# Max(1, n) * k once the loop makes n unbacked, and while_loop refuses the two as different values.
def _flat(example: torch.Tensor) -> bool:
    return example.dim() > 0 and any(is_sym_int(d) for d in example.shape)


def _buffer(rows, example: torch.Tensor) -> torch.Tensor:
    shape = (rows * example.numel(),) if _flat(example) else (rows, *example.shape)
    return torch.zeros(shape, dtype=example.dtype)


def _rows(buffer: torch.Tensor, rows, example: torch.Tensor) -> torch.Tensor:
    """The first ``rows`` rows of a buffer the loop wrote."""
    if _flat(example):
        return buffer.narrow(0, 0, rows * example.numel()).reshape(rows, *example.shape)
    return buffer.narrow(0, 0, rows)


def _written(buffer: torch.Tensor, count: torch.Tensor, value: torch.Tensor) -> torch.Tensor:
    """``buffer`` with ``value`` as its row ``count``."""
    value = value.to(buffer.dtype)
    if buffer.dim() == 1 and value.dim() > 0:  # a flat buffer (_flat)
        width = value.numel()
        positions = count.reshape(1) * width + torch.arange(width)
        return buffer.index_copy(0, positions, value.reshape(-1))
    return buffer.index_copy(0, count.reshape(1), value.unsqueeze(0))


def _count_then_fill(cond_fn, body_fn, args: tuple, lists: tuple, site_id: int, names: tuple):
    """The unbounded case of buffered_while (see module docstring); returns (carried, lists)."""
    site = sites.get_site(site_id)
    carried = carry(args, names, site)
    size = len(carried)
    examples = [acc[-1] if isinstance(acc, list) and acc else None for acc in lists]
    if any(not isinstance(e, torch.Tensor) for e in examples):
        examples = _probe_appended(body_fn, carried)

    def count_cond(count, *values):
        return as_predicate(as_tensor_value(cond_fn(*values))).clone()

    def count_body(count, *values):
        new_values, _ = body_fn(*fresh_copies(values))
        return (count + 1, *(as_tensor_value(v).clone() for v in new_values))

    zero = torch.zeros((), dtype=torch.int64)
    counted = graph_while(count_cond, count_body, (zero, *fresh_copies(carried)))
    total = counted[0].item()
    check_size(total)
    buffers = [_buffer(total, e) for e in examples]
    limit = counted[0].clone()  # carried: a loop's cond cannot close over an unbacked size

    def fill_cond(count, bound, *rest):
        test = as_predicate(as_tensor_value(cond_fn(*rest[:size])))
        return torch.logical_and(count < bound, test)

    def fill_body(count, bound, *rest):
        return (count + 1, bound.clone(), *_step_into_buffers(body_fn, count, rest, size))

    result = graph_while(fill_cond, fill_body, (zero.clone(), limit, *carried, *buffers))
    stacked = tuple(
        StackedList(acc, _rows(buffer, total, e))
        for acc, buffer, e in zip(lists, result[2 + size :], examples)
    )
    sites.mark_emitted(site_id, "while->while_loop")
    return tuple(result[2 : 2 + size]), stacked
