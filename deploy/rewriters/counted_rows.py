"""Lists a loop fills through a `while` loop nested in it, a number of rows per iteration that is
known only when the model runs:

    trips = []
    for i in range(n):
        ...
        while load + remaining > capacity:      # as many tips as this bin needs
            trips.append(load + take)
            ...

A graph loop carries values of one shape, and nothing bounds how many rows the inner loop appends,
so no buffer can be sized before the loop runs. The outer loop runs twice, carrying each such list
as a RowList (row_lists.py) whose appends the inner loop writes itself (``rows_while``): first with
room for one row only (writes past it land on the last row, the count goes on), which counts the
rows; then with room for exactly that many. The loop's body is a pure function of its values, so
both runs take the same steps; the cost is the loop's compute twice. After the loop each list is a
StackedList of its rows (a data-dependent length, as eagerly).

A `while` loop with no bound on its rows, whose lists a loop nested in it appends to and nothing
else reads (a state machine skipping samples in an inner `while`, a cutter trying a fixed list of
lengths), runs twice the same way (``counted_while_rows``).
"""

from __future__ import annotations

import torch

from deploy.errors import NotDeployableError
from deploy.rewriters.row_lists import RowList, as_row, list_append
from deploy.rewriters.row_loops import after_loop, flatten, lists_as_rows, rows_carried, unflatten
from deploy.rewriters.sites import get_site
from deploy.rewriters.sizing_rows import SIZES, record, sizing_index, sizing_list, sizing_now
from deploy.rewriters.values import Undefined, check_size, is_row_list, is_symbolic, is_tracing


def rows_while(while_stmt, cond_fn, body_fn, args: tuple, names: tuple, site_id: int, lists: tuple):
    """``while_stmt`` over a `while` that appends to lists an enclosing loop carries as RowLists:
    each list is one more loop variable (its buffer and count) and each appended value is written
    into it; (values, lists) as the `while` with lists gives them. None when a list is not a RowList."""
    if not (lists and is_tracing()):
        return None
    if sizing_now() and any(sizing_index(v) is not None for v in lists):
        _, appended = body_fn(*args)  # one iteration: the rows' shape (the nodes are dead)
        for rows, value in zip(lists, appended):
            record(rows, as_row(value))
        return args, lists
    positions, flag_lists, masks = _row_lists_and_flags(lists)
    if len(positions) + len(flag_lists) != len(lists):
        return None  # a list no enclosing loop carries as rows
    n = len(args)
    leaves = [*args, *(t for k in positions for t in (lists[k].buffer, lists[k].count))]
    leaf_names = (*names, *(f"_deploy_rows_{k}_{part}" for k in range(len(positions)) for part in ("b", "n")))

    def cond(*values):
        return cond_fn(*values[:n])

    def body(*values):
        new_values, appended = body_fn(*values[:n])
        out = list(new_values)
        for j, k in enumerate(positions):
            rows = RowList(values[n + 2 * j], values[n + 2 * j + 1])
            rows = _appended(rows, appended[k], appended[masks[k]] if k in masks else True)
            out += [rows.buffer, rows.count]
        return tuple(out)

    result = while_stmt(cond, body, tuple(leaves), leaf_names, site_id)
    merged = list(lists)
    for j, k in enumerate(positions):
        merged[k] = RowList(result[n + 2 * j], result[n + 2 * j + 1])
    for m in flag_lists:
        merged[m] = _applied()
    return tuple(result[:n]), tuple(merged)


def _row_lists_and_flags(lists) -> tuple[list, list, dict]:
    """Of a loop's appended-to lists: the positions of the RowLists, of the FlagLists whose lists
    are all among them, and each masked RowList's FlagList position."""
    positions = [k for k, acc in enumerate(lists) if is_row_list(acc)]
    flag_lists = [
        m
        for m, acc in enumerate(lists)
        if isinstance(acc, FlagList) and all(any(t is lists[k] for k in positions) for t in acc.of)
    ]
    masks = {k: m for m in flag_lists for k in positions if any(t is lists[k] for t in lists[m].of)}
    return positions, flag_lists, masks


def _appended(rows: RowList, value, flag, skipped=False) -> RowList:
    """``rows`` after an iteration that appended ``value`` where ``flag`` holds (and not
    ``skipped``): written at the count, the count moved on by the flag."""
    if isinstance(value, Undefined) or isinstance(flag, Undefined) or skipped is True or flag is False:
        return rows  # this iteration appended nothing
    if value is None:  # a path that did not append (its flag is false)
        value = rows.buffer.new_zeros(rows.buffer.shape[1:])
    grown = list_append(rows, value)
    count = grown.count
    if isinstance(flag, torch.Tensor):
        count = rows.count + flag.reshape(rows.count.shape).to(torch.int64)
    if isinstance(skipped, torch.Tensor):
        count = torch.where(skipped, rows.count, count)
    return RowList(grown.buffer, count)


def _applied() -> list:
    flags = FlagList()
    flags.applied = True
    return flags


class FlagList(list):
    """The flags a loop with a `continue` appends, one per iteration, saying whether it appended to
    the lists ``of`` (passes/continues.py), when one of them is a RowList an enclosing loop carries:
    rows_for then appends to that list only on the iterations whose flag is set, and the flags are
    ``applied`` (compacted.compact leaves the list as it is)."""

    of: tuple = ()
    applied: bool = False


def flags_of(*lists) -> list:
    """``[]`` before a loop with a `continue` appending to ``lists`` (passes/continues.py); a
    FlagList naming them when one is a RowList."""
    if not any(is_row_list(v) for v in lists):
        return []
    flags = FlagList()
    flags.of = lists
    return flags


def rows_for(for_range, bounds, body_fn, args, accumulators, names, site_id, break_index=-1, skip_index=-1):
    """``for_range`` over a `for` loop among whose ``accumulators`` (the lists it appends to once per
    iteration) are RowLists an enclosing loop carries: each is one more loop variable, each appended
    value written into it (only where its `continue` flags say so: FlagList); (values, lists) as
    for_range gives them. None when no accumulator is one."""
    positions = [k for k, acc in enumerate(accumulators) if is_row_list(acc)]
    if not positions or not is_tracing():
        return None
    if sizing_now() and any(sizing_index(accumulators[k]) is not None for k in positions):
        start = bounds[0] if len(bounds) > 1 else 0
        _, appended = body_fn(start, *args)  # one iteration: the rows' shape (the nodes are dead)
        for k in positions:
            if isinstance(appended[k], torch.Tensor):
                record(accumulators[k], as_row(appended[k]))
        return args, accumulators
    positions, flag_lists, masks = _row_lists_and_flags(accumulators)
    n = len(args)
    others = [k for k in range(len(accumulators)) if k not in positions and k not in flag_lists]

    def body(index, *values):
        new_values, appended = body_fn(index, *values[:n])
        skipped = new_values[skip_index] if skip_index >= 0 else False
        out = list(new_values)
        for j, k in enumerate(positions):
            out.append(
                _appended(values[n + j], appended[k], appended[masks[k]] if k in masks else True, skipped)
            )
        return tuple(out), tuple(appended[k] for k in others)

    extra_names = tuple(f"_deploy_rows_{j}" for j in range(len(positions)))
    values, lists = for_range(
        bounds,
        body,
        (*args, *(accumulators[k] for k in positions)),
        tuple(accumulators[k] for k in others),
        (*names, *extra_names),
        site_id,
        break_index,
        skip_index,
    )
    merged = list(accumulators)
    for j, k in enumerate(positions):
        merged[k] = values[n + j]
    for k, lst in zip(others, lists):
        merged[k] = lst
    for m in flag_lists:
        merged[m] = _applied()
    return tuple(values[:n]), tuple(merged)


def entries_or_counted(entry_by_entry, graph_for, start, stop, step, body_fn, args, accumulators, *rest):
    """``entry_by_entry()`` (list_state.py: the loop's lists carried entry by entry, which needs
    them to keep their length); when that fails on a list a nested `while` appends to (one with rows
    before the loop), ``graph_for`` over the loop, which counts then fills it. The first error when
    that does not apply or fails too (raised outside the handler, so the second attempt's errors do
    not chain to it)."""
    try:
        return entry_by_entry()
    except NotDeployableError as error:
        failed = error
    if torch.compiler.is_dynamo_compiling() or not any(is_symbolic(b) for b in (start, stop)):
        raise failed
    try:
        return graph_for(start, stop, step, body_fn, args, accumulators, *rest)
    except NotDeployableError:
        pass
    raise failed


def counted_then_filled(
    graph_for, start, stop, step, body_fn, args, accumulators, names, site_id, probe, rest
):
    """``graph_for`` (loop_operators._graph_for) over a loop whose Python-list variables a nested
    `while` appends to, run twice as the module docstring says; the rows' shapes come from one
    iteration ``probe(values)`` traces with each list a sizing RowList (sizing_rows.py). (values, lists),
    or None when a list is not filled that way."""
    positions = [i for i, v in enumerate(args) if isinstance(v, list)]
    if not positions or not all(_entries_are_rows(args[i]) for i in positions):
        return None
    probed_args = list(args)
    for k, i in enumerate(positions):
        probed_args[i] = sizing_list(k)
    SIZES.append({})
    try:
        probe(tuple(probed_args))
    except Exception:  # torch's many internal error types: the loop reports its own error
        return None
    finally:
        sizes = SIZES.pop()
    if len(sizes) != len(positions):
        return None  # a list no nested loop appends to
    shapes = {i: sizes[k] for k, i in enumerate(positions)}

    def run(room: dict, accumulators):
        values = list(args)
        for i in positions:
            shape, dtype = shapes[i]
            existing = [as_row(v, dtype) for v in args[i]]
            buffer = torch.zeros((len(existing) + room[i], *shape), dtype=dtype)
            if existing:
                buffer = torch.cat([torch.stack(existing), buffer[len(existing) :]])
            values[i] = RowList(buffer, torch.full((), len(existing), dtype=torch.int64))
        leaves, spec = flatten(tuple(values))
        leaf_names = tuple(
            part for v, name in zip(values, names) for part in ((name, name) if is_row_list(v) else (name,))
        )

        def body(index, *flat):
            new_values, appended = body_fn(index, *unflatten(flat, spec))
            return flatten(new_values)[0], appended

        out, lists = graph_for(start, stop, step, body, leaves, accumulators, leaf_names, site_id, *rest)
        return unflatten(out, spec), lists

    # the counting run appends to copies of the loop's own lists (its `penalties.append(...)`)
    counted, _ = run(dict.fromkeys(positions, 1), [list(acc) for acc in accumulators])
    room = {}
    for i in positions:
        total = (counted[i].count.reshape(()) - len(args[i])).item()
        check_size(total)
        # one row more: a buffer with no rows has none for the masked write of an append that a
        # select computes but does not take to land on
        room[i] = total + 1
    values, lists = run(room, accumulators)
    return after_loop(values, names), lists


def _entries_are_rows(values: list) -> bool:
    return all(isinstance(v, torch.Tensor) for v in values)


def counted_while_rows(while_fn, cond_fn, body_fn, args, names, site_id):
    """``while_as_rows`` of a `while` with no bound on its rows, whose lists a nested loop appends
    to (passes/row_lists._nested_appends_only): run first with room for one row per list (writes
    past it land on the last row, the count goes on), which counts the rows, then with exactly that
    many. The body is a pure function of the loop's values and never reads the lists, so both runs
    take the same steps; the cost is the loop's compute twice."""
    from deploy.rewriters.loop_common import _as_loop_body_probe
    from deploy.rewriters.operators import fresh_copies

    def probe(values):
        with _as_loop_body_probe():
            body_fn(*fresh_copies(values))

    static = get_site(site_id).row_appends
    positions = [i for i, v in enumerate(args) if isinstance(v, list)]

    def run(rooms: dict):
        converted = lists_as_rows(args, names, None, probe, static, rooms)
        if converted is None:
            return None
        return rows_carried(while_fn, cond_fn, body_fn, converted, names, site_id)

    counted = run({names[i]: 1 for i in positions})
    if counted is None:
        return None
    rooms = {}
    for i in positions:
        if isinstance(counted[i], RowList):
            total = (counted[i].count.reshape(()) - len(args[i])).item()
            check_size(total)
            # one row more: a buffer with no rows has no row for the appends of a branch computed
            # but not taken (a select) to land on
            rooms[names[i]] = total + 1
        else:
            rooms[names[i]] = 0
    values = run(rooms)
    return None if values is None else after_loop(values)
