"""Loops that carry lists as RowLists (row_lists.py): the loop variables that are Python lists of
tensors become buffers with room for every row the loop can append and a count (lists_as_rows),
flattened into the tensors a graph loop carries and rebuilt around its body (rows_carried,
carried_as_rows for range loops, while_as_rows for `while` loops), and StackedLists of their rows
again after the loop (after_loop).
"""

from __future__ import annotations

import torch
from torch.utils import _pytree as pytree

from deploy.rewriters import sites
from deploy.rewriters.row_lists import RowList, as_row, is_row_entry, recording, recording_now
from deploy.rewriters.row_windows import floors
from deploy.rewriters.values import StackedList, is_tracing


def lists_as_rows(
    args: tuple,
    names: tuple[str, ...],
    trips,
    probe,
    static: dict,
    rooms: dict | None = None,
    shapes: dict | None = None,
) -> tuple | None:
    """The loop variables with each Python list (of tensors) made a RowList with room for ``trips``
    iterations; ``probe(values)`` traces one iteration (for empty lists' row shapes), None inside a
    body dynamo traces (no probe there: the rows already in the list give the shape). ``static``:
    the appends the loop body holds per list (Site.row_appends). ``shapes`` (Site.row_shapes): the
    static row shapes a probe found, which an empty list inside dynamo (a loop nested in another's
    body, probed at the top level first) takes. None when no variable is a list, or a list's rows
    cannot be made one tensor."""
    positions = [i for i, v in enumerate(args) if isinstance(v, list)]
    if not positions:
        return None
    if not all(is_row_entry(v) for i in positions for v in args[i]):
        return None
    record = {}
    if probe is None:
        for i in positions:
            if static.get(names[i], (None,))[0] is None:
                return None
            if not args[i] and names[i] not in (shapes or {}):
                return None
            shape, dtype = (
                (tuple(as_row(args[i][0]).shape), as_row(args[i][0]).dtype) if args[i] else shapes[names[i]]
            )
            record[names[i]] = (shape, dtype, 0)
    else:
        with recording() as record:
            try:
                probe(args)
                failed = False
            except Exception:  # torch's many internal error types: probed on RowLists instead
                failed = True
        if failed:  # `xs.pop()`, `xs[-1]` of a list still empty (row_probe.py)
            from deploy.rewriters.row_probe import probed_rows

            record = probed_rows(args, names, positions, probe, record, static)
            if record is None:
                return None  # the loop reports its own error
        if shapes is not None:
            shapes.update({n: (shape, dtype) for n, (shape, dtype, _) in record.items() if _static(shape)})
    out = list(args)
    for i in positions:
        name, existing = names[i], args[i]
        if name not in record:
            return None  # no append in the body reached: the list is only read
        shape, dtype, sites = record[name]
        if static.get(name, (None,))[0] is not None:
            sites = static[name][0]  # every append statement, also a branch's the probe skipped
        rows = [as_row(v) for v in existing]
        if any(tuple(r.shape) != tuple(shape) for r in rows):
            return None
        capacity = len(rows) + (rooms[name] if rooms is not None else trips * sites)
        buffer = torch.zeros((capacity, *shape), dtype=dtype)
        if rows:
            buffer = torch.cat([torch.stack(rows).to(dtype), buffer[len(rows) :]])
        out[i] = RowList(buffer, torch.full((), len(rows), dtype=torch.int64))
    return tuple(out)


def _static(shape: tuple) -> bool:
    return all(isinstance(d, int) and not isinstance(d, torch.SymInt) for d in shape)


def rows_carried(while_fn, cond_fn, body_fn, args, names, site_id):
    """``while_fn`` over a loop whose values hold RowLists (an enclosing loop's lists it appends
    to): each as its buffer and count."""
    leaves, spec, leaf_names = _flattened(args, names)

    def cond(*flat):
        return cond_fn(*unflatten(flat, spec))

    def body(*flat):
        return flatten(body_fn(*unflatten(flat, spec)))[0]

    return unflatten(while_fn(cond, body, leaves, leaf_names, site_id), spec)


def deleted_rows(while_fn, cond_fn, body_fn, args, names, site_id):
    """``while_fn`` over a `while` loop that deletes entries of a list a graph loop filled (``del
    stops[i + 1]`` while merging neighbours, passes/deletions.py): such a list is carried as a
    RowList of its rows (room: the rows it has; a deletion moves the rows after it up one and
    lowers the count), a StackedList of the rows left after the loop. None when no loop variable
    is such a list."""
    deleted = sites.get_site(site_id).row_deleted
    if not deleted or not is_tracing():
        return None
    positions = {
        i for i, (v, n) in enumerate(zip(args, names)) if n in deleted and isinstance(v, StackedList)
    }
    if not positions:
        return None
    converted = tuple(_all_rows(v) if i in positions else v for i, v in enumerate(args))
    return after_loop(rows_carried(while_fn, cond_fn, body_fn, converted, names, site_id), names)


def _all_rows(values: StackedList) -> RowList:
    rows = values.stacked_with_prefix()
    return RowList(rows, as_row(rows.shape[0]).reshape(()).to(torch.int64))


def flatten(values: tuple) -> tuple[tuple, object]:
    leaves, spec = pytree.tree_flatten(list(values))
    return tuple(leaves), spec


def unflatten(leaves, spec) -> tuple:
    return tuple(pytree.tree_unflatten(list(leaves), spec))


def after_loop(values: tuple, names: tuple = (), exact: set[str] = frozenset()) -> tuple:
    """RowLists back to lists (StackedList of their rows) once the loop is done; a list in ``exact``
    (every iteration made all its appends, Site.row_appends) filled its buffer: all of it, with the
    size the buffer was made with rather than a data-dependent count (`prev = torch.stack(cur)`
    then keeps the shape the enclosing loop carries)."""
    return tuple(
        (StackedList([], v.buffer) if n in exact else v.to_stacked()) if isinstance(v, RowList) else v
        for v, n in zip(values, names or (None,) * len(values))
    )


def _exact(static: dict, break_index: int) -> set[str]:
    return {n for n, (_, exact) in static.items() if exact} if break_index < 0 else set()


def _flattened(values: tuple, names: tuple) -> tuple:
    """The loop's values as leaves (a RowList as its buffer and count), their spec, and a name per
    leaf (a RowList's name twice)."""
    leaves, spec = flatten(values)
    leaf_names = tuple(
        part for value, n in zip(values, names) for part in ((n, n) if isinstance(value, RowList) else (n,))
    )
    return leaves, spec, leaf_names


def carried_as_rows(graph_for, start, stop, step, body_fn, args, accumulators, names, site_id, *rest):
    """``graph_for`` (loop_operators._graph_for) over the loop with its Python-list variables
    carried as RowLists; (values, lists) with those lists as StackedLists, or None when no variable
    is such a list (the caller carries the values as they are)."""
    from deploy.rewriters.buffered_loop import trip_count
    from deploy.rewriters.loop_common import _as_loop_body_probe
    from deploy.rewriters.operators import fresh_copies
    from deploy.rewriters.values import as_tensor_value, is_sym_int

    static = sites.get_site(site_id).row_appends
    carried_on = any(isinstance(v, RowList) for v in args)
    if carried_on:
        converted = args  # a loop nested in one that carries the list: carried on as it is
    elif not any(isinstance(v, list) for v in args):
        return None
    elif recording_now() and not accumulators and not any(n in static for n in names):
        return _probed_once(start, body_fn, args)
    else:
        if isinstance(stop, torch.Tensor):
            stop = stop.reshape(()).to(torch.int64).item()
        if not isinstance(start, int) or not isinstance(step, int):
            return None
        trips = trip_count(start, stop, step) if is_sym_int(stop) else len(range(start, stop, step))

        def probe(values):  # one iteration traced (its nodes dead): the new values
            with _as_loop_body_probe():
                return body_fn(as_tensor_value(start), *fresh_copies(values))[0]

        dynamo = torch.compiler.is_dynamo_compiling()  # a loop nested in a traced body: no probe
        shapes = sites.get_site(site_id).row_shapes
        converted = lists_as_rows(args, names, trips, None if dynamo else probe, static, None, shapes)
        if converted is None and not dynamo:
            # lists a nested loop appends to, any number of rows per iteration (counted_rows.py)
            from deploy.rewriters.counted_rows import counted_then_filled

            return counted_then_filled(
                graph_for, start, stop, step, body_fn, args, accumulators, names, site_id, probe, rest
            )
        if converted is None:
            return None
    leaves, spec, leaf_names = _flattened(converted, names)

    def body(index, *flat):
        new_values, appended = body_fn(index, *unflatten(flat, spec))
        return flatten(new_values)[0], appended

    with floors(args, names, sites.get_site(site_id).row_growing):
        values, lists = graph_for(start, stop, step, body, leaves, accumulators, leaf_names, site_id, *rest)
    values = unflatten(values, spec)
    return (values if carried_on else after_loop(values, names, _exact(static, rest[0]))), lists


def _probed_once(start, body_fn, args) -> tuple:
    """A loop nested in an iteration an enclosing loop probes (lists_as_rows: which rows its lists
    get appended), holding such a list that it only appends to (a search loop appending what it
    finds, inside a cond the `continue` made): its body once records the appends, as the probe's
    own appends do. The lists stay as they were (list_append only records), and the probe keeps
    none of the values (dead nodes), so one iteration stands for the loop; a graph loop could not
    carry the plain list. A list the nested loop reads back is its own rows (static), as before."""
    from deploy.rewriters.values import as_tensor_value

    values, _ = body_fn(as_tensor_value(start), *args)
    return tuple(values), []


def rows_from(while_fn, cond_fn, body_fn, names, site_id, row_room):
    """``values -> while_as_rows(...)`` from those values, with room for ``row_room(*values)`` more
    rows (a `while` over lists it appends to and reads back), its site checked first."""
    from deploy.rewriters.loop_common import check_supported

    def run(values):
        check_supported(sites.get_site(site_id))
        return while_as_rows(while_fn, cond_fn, body_fn, values, names, site_id, row_room(*values))

    return run


def while_as_rows(while_fn, cond_fn, body_fn, args, names, site_id, room, probing=True):
    """``while_fn`` over a `while` loop whose Python lists are RowLists with room for ``room`` more
    iterations; the values with those lists as StackedLists, or None. ``probing=False``: the rows'
    shape from the rows already in each list (a work stack: work_stacks.py)."""
    from deploy.rewriters.loop_common import _as_loop_body_probe
    from deploy.rewriters.operators import fresh_copies

    if (torch.compiler.is_dynamo_compiling() and probing) or not any(isinstance(v, list) for v in args):
        return None
    if isinstance(room, torch.Tensor) and room.numel() == 1 and not room.dtype.is_floating_point:
        # `while steps < budget` with a tensor budget: room for budget - steps rows (an unbacked size)
        room = room.reshape(()).to(torch.int64).clamp(min=0).item()
        torch._check(room >= 0)
    elif room is None and probing:  # no bound: count the rows, then fill them
        from deploy.rewriters.counted_rows import counted_while_rows

        return counted_while_rows(while_fn, cond_fn, body_fn, args, names, site_id)
    elif isinstance(room, torch.Tensor) or room is None:
        return None

    def probe(values):
        with _as_loop_body_probe():
            body_fn(*fresh_copies(values))

    static = sites.get_site(site_id).row_appends
    if not probing:  # a work stack: its room bounds every push, a nested loop's too (work_stacks.py)
        static = {n: (1 if count is None else count, exact) for n, (count, exact) in static.items()}
    room = torch.sym_max(room, 0) if isinstance(room, int) else room  # (dynamo: builtin max(s, 0) is 0)
    converted = lists_as_rows(args, names, room, probe if probing else None, static)
    if converted is None:
        return None
    leaves, spec, leaf_names = _flattened(converted, names)

    def cond(*flat):
        return cond_fn(*unflatten(flat, spec))

    def body(*flat):
        return flatten(body_fn(*unflatten(flat, spec)))[0]

    values = while_fn(cond, body, leaves, leaf_names, site_id)
    return after_loop(unflatten(values, spec))
