"""`for` loops over a dynamic size in steps, appending one value per chunk:

    for s in range(0, x.shape[-1], 16):
        c = x[..., s : s + 16]            # the last chunk is shorter unless 16 divides the length
        outs.append(norm(c))
    torch.cat(outs, -1)

The values a graph loop carries or stacks must keep one shape, but the last chunk here has its own
length (1..16). So the full chunks (``(n - start - 1) // step`` of them, possibly none) run in a
buffered while_loop, each reading exactly ``step`` positions, and the last iteration runs once after
it, at the top level of the program, where its slice has a size of its own. Its values join the
lists after the loop's rows (``torch.cat`` takes them as they are; ``torch.stack`` needs one shape,
as eagerly). The number of full chunks is an unbacked size: a backed expression such as
``(n - 1) // 16`` would let torch.export assume facts about it (a loop of at least two rows) that
do not hold over the dynamic range.

The same loop written over a block count, ``for b in range((n + 15) // 16): x[b * 16 : (b + 1) *
16]`` (a ceiling division, so at least one block), is run the same way: its last block runs at the
top level (``is_block_loop``), the full blocks before it in a while_loop of ``blocks - 1`` rows.
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

from deploy.errors import NotDeployableError
from deploy.rewriters import trace_state
from deploy.rewriters.buffered_loop import buffered_for, trip_count
from deploy.rewriters.loop_common import probe_iteration
from deploy.rewriters.module_stack import kept_on_failure
from deploy.rewriters.operators import fresh_copies
from deploy.rewriters.size_facts import define
from deploy.rewriters.values import as_tensor_value, is_sym_int


def is_chunked(start: object, stop: object, step: object) -> bool:
    """``range(start, n, step)`` with Python ``start``/``step > 1`` over a dynamic size, outside
    loop bodies: at the top level of the exported program or in a cond's branch (where a last
    chunk read at the full length would repeat its last entry: other values, other sizes)."""
    if trace_state.TRACE_STATE.in_loop_body:
        return False
    return isinstance(start, int) and isinstance(step, int) and step > 1 and is_sym_int(stop)


def is_block_loop(site, start: object, stop: object, step: object) -> bool:
    """``for b in range(blocks)`` over a ceiling division of a dynamic size, ``(n + k - 1) // k``,
    whose body slices from the counter (``x[b * k : (b + 1) * k]``; passes/block_counts.py marks
    the site), outside loop bodies: the last window may come out shorter eagerly, so the last block
    runs apart (see module docstring)."""
    if trace_state.TRACE_STATE.in_loop_body or not site.ceiling_blocks:
        return False
    return isinstance(start, int) and start == 0 and step == 1 and is_sym_int(stop)


def chunked_for(start: int, stop, step: int, body_fn, carried: tuple, accumulators: tuple, run) -> tuple:
    """The loop as described above; returns (carried values, lists). ``run`` wraps the while_loop.
    In a cond's branch (dynamo traces it, no `.item()` there) the count of full chunks is the
    size expression itself."""
    if torch.compiler.is_dynamo_compiling():
        last = start + (stop - start - 1) // step * step
    else:
        full = as_tensor_value((stop - start - 1) // step).item()
        define(full, (stop - start - 1) // step)
        torch._check(full >= 0)
        torch._check(stop > start)
        last = start + full * step
        torch._check(last < stop)
        torch._check(last + step >= stop)
    carried, lists = buffered_for(
        start, last, step, body_fn, carried, accumulators, -1, run, examples=probe(start, body_fn, carried)
    )
    new_values, appended = body_fn(last, *fresh_copies(tuple(carried)))
    for values, value in zip(lists, appended):
        values.append(value)
    return tuple(as_tensor_value(v) for v in new_values), lists


def is_derived_size(stop: object) -> bool:
    """A bound that is a size expression (``h // 32``, ``n - 1``), not a plain dynamic dim, at the top
    level of the exported program: torch.export assumes a scan over a new size runs at least twice,
    which such a bound need not."""
    if torch.compiler.is_dynamo_compiling() or trace_state.TRACE_STATE.in_loop_body:
        return False
    if not isinstance(stop, torch.SymInt) or free_unbacked_symbols(stop):
        return False
    return not stop.node.expr.is_Symbol


def counted_for(start: int, stop, step: int, body_fn, carried: tuple, accumulators: tuple, run) -> tuple:
    """``range(start, stop, step)`` with a derived-size ``stop`` as a buffered while_loop whose trip
    count is an unbacked size (0 allowed); returns (carried values, lists)."""
    count = as_tensor_value(trip_count(start, stop, step)).item()
    define(count, trip_count(start, stop, step))
    torch._check(count >= 0)
    examples = probe(start, body_fn, carried)
    return buffered_for(
        start, start + count * step, step, body_fn, carried, accumulators, -1, run, examples=examples
    )


def probe(start, body_fn, carried: tuple) -> list:
    """The values one full-chunk iteration appends (loop_common.probe_iteration)."""
    return probe_iteration(start, body_fn, carried)[1]


def probe_examples(start, body_fn, carried: tuple, accumulators: tuple) -> list | None:
    """Shapes for the buffers of a loop whose lists may stay empty; None (peel instead) when the
    probe fails or gives values that are not tensors."""
    try:
        with kept_on_failure():
            examples = probe(start, body_fn, carried)
    except NotDeployableError:
        raise
    except Exception:  # torch's many internal error types: the peeled first iteration will say
        return None
    examples = [_example(acc, value) for acc, value in zip(accumulators, examples)]
    return examples if all(isinstance(e, torch.Tensor) for e in examples) else None


def _example(values: list, probed):
    """A list's last value before the loop shapes its buffer, except an empty placeholder
    (``track = [torch.zeros(0, 2)]``, so that ``torch.cat(track)`` works when nothing is appended):
    then the value the probed iteration appends."""
    if not values:
        return probed
    last = values[-1]
    empty = isinstance(last, torch.Tensor) and any(type(d) is int and d == 0 for d in last.shape)
    if empty and isinstance(probed, torch.Tensor):
        return probed
    return last
