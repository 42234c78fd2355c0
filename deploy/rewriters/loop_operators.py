"""Runtime operators the rewritten `while` / `for ... in range(...)` loops call.

Dispatch per call, like operators.py: plain Python bounds/conditions run the plain Python loop;
a tensor condition or a symbolic bound while exporting emits ``torch.while_loop`` (or
``torch._higher_order_ops.scan`` when the loop appends one value per iteration to a list). A
plain Python loop whose condition turns into a tensor after some iterations (``done = False;
while not done: ... done = (err < tol).all()``) keeps the iterations already run and hands the
rest to while_loop.
"""

from __future__ import annotations

import sys
from functools import partial

import torch
from torch._higher_order_ops.while_loop import while_loop

from deploy.errors import NotDeployableError
from deploy.rewriters import sites
from deploy.rewriters.appending_loops import buffered as buffered_loop
from deploy.rewriters.appending_loops import buffered_bound, counted, data_bound, prepended, unbacked
from deploy.rewriters.buffered_while import buffered_while
from deploy.rewriters.chunked_loop import chunked_for, is_block_loop, is_chunked, is_derived_size
from deploy.rewriters.counted_rows import entries_or_counted, rows_for, rows_while
from deploy.rewriters.growing_loop import graph_or_grown, grown_for
from deploy.rewriters.list_state import ListState, result_lists_defined
from deploy.rewriters.loop_common import (
    carry,
    check_supported,
    clone_all,
    in_loop_body,
    iterations_label,
    loop_error,
    nones_as_placeholders,
    placeholders_for_undefined,
    python_while,
    range_bounds,
    read_once_set,
    to_tensor_predicate,
    unit_steps,
    unset_as_undefined,
)
from deploy.rewriters.mixed_rows import made_rows, rows_appended
from deploy.rewriters.operators import fresh_copies
from deploy.rewriters.row_loops import carried_as_rows, deleted_rows, rows_carried, rows_from
from deploy.rewriters.scan_loop import scan_for as _scan_for
from deploy.rewriters.shrinking_loop import shrunk_while
from deploy.rewriters.sizing_rows import sizing_index, sizing_now
from deploy.rewriters.unrolled_loop import try_unrolled
from deploy.rewriters.values import (
    Undefined,
    as_predicate,
    as_tensor_value,
    is_row_list,
    is_sym_int,
    is_symbolic,
    is_tracing,
)
from deploy.rewriters.work_stacks import stack_while


def while_stmt(
    cond_fn,
    body_fn,
    args: tuple,
    names: tuple[str, ...],
    site_id: int,
    lists: tuple = (),
    capacity=None,
    row_room=None,
    work_stack: bool = False,
) -> tuple:
    """``while cond: body`` where cond/body take the loop-carried variables and body returns them;
    with ``lists`` (appended to once per iteration) the body also returns the appended values, the
    result is (carried, lists) and ``capacity`` bounds the iterations (buffered_while.py)."""
    body_fn = rows_appended(body_fn) if lists else body_fn  # (mixed_rows.py)
    rows = rows_while(while_stmt, cond_fn, body_fn, args, names, site_id, lists)
    if rows is None and not lists:  # entries deleted from a list a graph loop filled (row_loops.py)
        rows = deleted_rows(while_stmt, cond_fn, body_fn, args, names, site_id)
    if rows is not None:  # appends into lists an enclosing loop carries (counted_rows.py)
        return rows
    if is_tracing():  # a list a `return` in the loop gives: carried entry by entry, as any list
        args = result_lists_defined(
            args, names, lambda v: body_fn(*v)[0] if capacity or lists else body_fn(*v)
        )
    state = ListState(args, names, site_id) if is_tracing() else None
    if state:  # lists of tensors among the loop variables: carried entry by entry (list_state.py)
        return state.while_loop(while_stmt, cond_fn, body_fn, args, site_id, lists, capacity)
    if capacity is not None:
        site = sites.get_site(site_id)
        check_supported(site)
        if is_tracing():
            args = placeholders_for_undefined(args, lambda values: body_fn(*values)[0])
        try:
            return buffered_while(cond_fn, body_fn, args, lists, capacity, site_id, names)
        except NotDeployableError:
            raise
        except Exception as exc:  # torch's many internal error types -> one line naming the user's loop
            raise loop_error(site, exc, names) from exc
    if work_stack and is_tracing():  # a list the loop pops and appends to (work_stacks.py)
        rows = stack_while(while_stmt, cond_fn, body_fn, args, names, site_id, row_room)
        if rows is not None:
            return rows
    # lists the loop appends to and reads back (row_lists.py), also from a Python iteration on
    rest = rows_from(while_stmt, cond_fn, body_fn, names, site_id, row_room) if row_room is not None else None
    args, finished = python_while(cond_fn, lambda values: tuple(body_fn(*values)), args, site_id, rest)
    if finished:
        return args
    site = sites.get_site(site_id)
    check_supported(site)
    rows = rest(args) if rest is not None else None
    if rows is not None:
        return rows
    if sizing_now() and any(sizing_index(v) is not None for v in args):
        body_fn(*args)  # one iteration records the rows' shapes (sizing_rows.py; the nodes are dead)
        return args
    if any(is_row_list(v) for v in args):  # a list an enclosing loop carries as rows, appended here
        return rows_carried(while_stmt, cond_fn, body_fn, args, names, site_id)
    args = placeholders_for_undefined(unset_as_undefined(args, names), lambda values: body_fn(*values))
    carried = carry(args, names, site)

    def graph_cond(*values):
        # a copy: the test may be a carried flag itself, and cond_fn may not alias its inputs
        return as_predicate(to_tensor_predicate(cond_fn(*values))).clone()

    def graph_body(*values):
        return clone_all(body_fn(*fresh_copies(values)))

    try:
        result = in_loop_body(while_loop, graph_cond, graph_body, carried)
    except Exception as exc:  # torch's many internal error types -> one line naming the user's loop
        # values that get shorter: carried as buffers and lengths (shrinking_loop.py)
        result = shrunk_while(while_loop, graph_cond, graph_body, carried)
        if result is None:
            raise loop_error(site, exc, names) from exc
    sites.mark_emitted(site_id, "while->while_loop")
    return tuple(result)


def for_range(
    bounds: tuple,
    body_fn,
    args: tuple,
    accumulators: tuple,
    names: tuple[str, ...],
    site_id: int,
    break_index: int = -1,
    skip_index: int = -1,
    prepends: tuple = (),
) -> tuple:
    """``for t in range(*bounds): body``; body(t, *args) returns (args, appended values).

    ``accumulators`` are the lists the body appends to once per iteration; ``break_index`` is the
    position in ``args`` of the flag a ``break`` sets (-1: none). ``skip_index``: the appends come
    after a `break`, and ``args[skip_index]`` says an iteration appended nothing (its values are
    Undefined): the break flag itself, or a flag of its own when a `break` may follow the appends.
    """
    if any(prepends):  # `outs.insert(0, v)`: the loop's values in reverse, before the list's
        sizes = [len(acc) for acc in accumulators]
        args, lists = for_range(bounds, body_fn, args, accumulators, names, site_id, break_index, skip_index)
        return args, tuple(
            prepended(lst, size) if first else lst for lst, size, first in zip(lists, sizes, prepends)
        )
    rows = rows_for(for_range, bounds, body_fn, args, accumulators, names, site_id, break_index, skip_index)
    if rows is not None:  # appends into lists an enclosing loop carries (counted_rows.py)
        return rows
    if is_tracing():
        args = result_lists_defined(args, names, lambda v: body_fn(range_bounds(bounds)[0], *v)[0])
    state = ListState(args, names, site_id) if is_tracing() else None
    if state:  # lists of tensors among the loop variables: carried entry by entry (list_state.py)
        entries = partial(
            state.range_loop, for_range, bounds, body_fn, args, accumulators, break_index, skip_index
        )
        rest = (args, accumulators, names, site_id, break_index, None, skip_index)
        return entries_or_counted(entries, _graph_for, *range_bounds(bounds), body_fn, *rest)
    start, stop, step = range_bounds(bounds)
    entry = args[break_index] if break_index >= 0 else False
    if not is_symbolic(entry) and entry and not any(is_symbolic(b) for b in (start, stop, step)):
        return args, accumulators  # a loop whose break test holds before it starts (breaks.py)
    if not any(is_symbolic(b) for b in (start, stop, step)) and not is_symbolic(entry):
        count = 0
        for t in range(start, stop, step):
            args, appended = body_fn(t, *args)
            count += 1
            flag = args[break_index] if break_index >= 0 else False
            skipped = args[skip_index] if skip_index >= 0 else False
            if is_symbolic(skipped):  # whether this iteration appended is data-dependent
                pending = (appended, skipped)
                return _graph_for(
                    t + step,
                    stop,
                    step,
                    body_fn,
                    args,
                    accumulators,
                    names,
                    site_id,
                    break_index,
                    pending,
                    skip_index,
                )
            for acc, value in zip(accumulators, appended):
                if not isinstance(value, Undefined):
                    acc.append(value)
            if break_index >= 0:
                if is_symbolic(flag) and not range(t + step, stop, step):
                    break  # a tensor `break` in the last iteration (`for _ in range(1)`): nothing left
                if is_symbolic(flag):  # a tensor `break`: hand the remaining iterations to while_loop
                    rest = (t + step, stop, step, body_fn, args, accumulators)
                    # inside a graph op's body a short loop is unrolled first: a graph loop's tensor
                    # counter there makes sizes the body cannot return
                    nested = torch.compiler.is_dynamo_compiling()
                    unrolled = try_unrolled(*rest, break_index) if nested else None
                    if unrolled is None:
                        try:
                            # (a `break` after this iteration's appends: later ones may append nothing)
                            return _graph_for(*rest, names, site_id, break_index, None, skip_index)
                        except NotDeployableError as exc:
                            error = exc
                        # carried values that change shape: a short Python-bounded loop is unrolled
                        # under the flag; else growing values become buffers in the while_loop.
                        # (Outside the handler: an error inside them must not read the graph loop's
                        # as its cause, operators._nested_deploy_error.)
                        unrolled = None if nested else try_unrolled(*rest, break_index)
                    if unrolled is not None:
                        sites.mark_emitted(site_id, "for->unrolled")
                        return unrolled, accumulators
                    grown = grown_for(_graph_for, *rest, names, site_id, break_index)
                    if grown is None:
                        raise error
                    return grown
                if flag:
                    break
        if not is_tracing():
            tensor_valued = any(isinstance(b, torch.Tensor) for b in (start, stop, step))
            sites.record_branch(site_id, iterations_label(count), tensor_valued)
        return args, accumulators
    if accumulators:
        return _graph_for(
            start, stop, step, body_fn, args, accumulators, names, site_id, break_index, None, skip_index
        )
    return graph_or_grown(
        _graph_for, start, stop, step, body_fn, args, accumulators, names, site_id, break_index
    )


def _instead(build):
    """A second way to emit a loop whose first failed: its value, else the first way's error."""
    error = sys.exc_info()[1]
    try:
        return build()
    except NotDeployableError:
        raise error from None


def _graph_for(
    start,
    stop,
    step,
    body_fn,
    args,
    accumulators,
    names,
    site_id,
    break_index,
    pending=None,
    skip_index=-1,
):
    site = sites.get_site(site_id)
    check_supported(site)
    body_fn = rows_appended(body_fn)  # a tuple of ints and floats appended: its row (mixed_rows.py)
    pending = pending and (made_rows(pending[0]), pending[1])
    if is_symbolic(step):
        start, stop, step, body_fn = unit_steps(start, stop, step, body_fn)
    if step == 0:
        raise site.error("range() arg 3 must not be zero")
    if accumulators and isinstance(step, int) and data_bound(0, start) and not isinstance(stop, torch.Tensor):
        # `range(i + 1, n)` or `range(i + w, n, w)` after a data-dependent `i` appends 0 or more
        # values: counted from 0, so the buffered while_loop (which may run 0 times) takes it; scan
        # refuses a length that may be 0
        offset = as_tensor_value(start).reshape(()).to(torch.int64)
        ahead = as_tensor_value(stop) - offset if step > 0 else offset - as_tensor_value(stop)
        remaining = torch.clamp((ahead + abs(step) - 1) // abs(step), min=0)

        def shifted(index, *values):
            return body_fn(offset + index * step, *values)

        rest = (shifted, args, accumulators, names, site_id, break_index, pending, skip_index)
        return _graph_for(0, remaining, 1, *rest)
    dynamo = torch.compiler.is_dynamo_compiling()
    if not dynamo:
        # the value a `return` inside the loop gives (None until it runs: passes/loop_returns.py)
        # is never read before it is set: a placeholder (placeholders_for_undefined, a probe that
        # cannot run under dynamo), not a peeled first iteration, which needs a trip count >= 1
        args = unset_as_undefined(args, names)
    elif break_index >= 0:  # a breaking loop's loop-else slots (passes/loop_else.py): probed here too
        args = unset_as_undefined(args, names, ("_deploy_last_",))
    unset = [n for v, n in zip(args, names) if v is None or isinstance(v, Undefined)]
    if break_index < 0 and any(dynamo or not read_once_set(n) for n in unset):
        # `h = None; for t in range(n): h = cell(x[:, t], h)`: peel the first iteration so every
        # loop variable has a tensor value; a dynamic trip count must then be at least 1.
        if is_sym_int(stop) and not is_sym_int(start) and isinstance(start, int):
            torch._check(stop > start if step > 0 else stop < start)
        args, appended = body_fn(start, *args)
        for acc, value in zip(accumulators, appended):
            acc.append(value)
        start = start + step
    rows = carried_as_rows(
        _graph_for,
        start,
        stop,
        step,
        body_fn,
        args,
        accumulators,
        names,
        site_id,
        break_index,
        pending,
        skip_index,
    )
    if rows is not None:  # lists the loop appends to and reads back (row_lists.py)
        return rows
    args = placeholders_for_undefined(args, lambda values: body_fn(start, *values)[0])
    args = nones_as_placeholders(args, lambda values: body_fn(start, *values)[0])
    carried = carry(args, names, site)
    if accumulators and break_index < 0 and pending is None and is_chunked(start, stop, step):
        # `for s in range(0, n, k): outs.append(f(x[..., s : s + k]))`: the last chunk is shorter
        return counted(start, stop, step, body_fn, carried, accumulators, names, site, chunked_for)
    if accumulators and break_index < 0 and pending is None and is_block_loop(site, start, stop, step):
        # `for b in range((n + k - 1) // k): outs.append(f(x[b * k : (b + 1) * k]))`: likewise
        return counted(start, stop, step, body_fn, carried, accumulators, names, site, chunked_for)

    def buffered(stop):
        return buffered_loop(
            start,
            stop,
            step,
            body_fn,
            carried,
            accumulators,
            names,
            site,
            break_index,
            pending,
            skip_index,
        )

    bound = buffered_bound(start, stop, step, accumulators, break_index)
    if bound is not None:
        return buffered(bound)
    if unbacked(stop, inside_scan=bool(accumulators) and break_index < 0):
        stop = as_tensor_value(stop)  # an unbacked bound (n = int(t.item())) cannot be closed over
    if accumulators:
        if break_index >= 0:
            return buffered(stop)
        if isinstance(stop, torch.Tensor):
            raise site.error(
                "this loop appends to a list and its trip count is a tensor value (`.item()`, an enclosing "
                "loop's counter): torch.export cannot stack a data-dependent number of values (scan over "
                "an unbacked length). Write into a preallocated tensor of the maximum length (`out[t] = value`) and "
                "return the count, or loop over a dynamic size such as `x.shape[1]`"
            )
        if isinstance(start, int) and is_derived_size(stop):  # `range(h // 32)`: may run 0 or 1 times
            return counted(start, stop, step, body_fn, carried, accumulators, names, site)
        try:
            return _scan_for(start, stop, step, body_fn, carried, accumulators, names, site)
        except NotDeployableError:
            # scan refuses some bodies a while_loop takes (a global constant tensor as an input)
            return _instead(lambda: buffered(stop))
    index0 = as_tensor_value(start) if not isinstance(start, torch.Tensor) else start.to(torch.int64)
    # a tensor bound is carried (unchanged) rather than closed over: a bound that is an enclosing
    # loop's counter is also read by the body, and dynamo lifts one tensor closed over by both the
    # loop's cond and body twice (duplicate argument in the generated graph)
    limit = (stop.to(torch.int64).reshape(()).clone(),) if isinstance(stop, torch.Tensor) else ()

    def graph_cond(index, *values):
        bound = values[0] if limit else stop
        values = values[len(limit) :]
        more = index < bound if step > 0 else index > bound
        more = to_tensor_predicate(more)
        if break_index >= 0:
            more = torch.logical_and(more, torch.logical_not(as_predicate(values[break_index])))
        return more.clone()

    def graph_body(index, *values):
        bound, values = values[: len(limit)], values[len(limit) :]
        new_values, _ = body_fn(index, *fresh_copies(values))
        return (index + step, *(b.clone() for b in bound), *clone_all(new_values))

    try:
        result = in_loop_body(while_loop, graph_cond, graph_body, (index0, *limit, *carried))
    except Exception as exc:  # torch's many internal error types -> one line naming the user's loop
        raise loop_error(site, exc, names) from exc
    sites.mark_emitted(site_id, "for->while_loop")
    return tuple(result[1 + len(limit) :]), accumulators
