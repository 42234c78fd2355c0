"""Python lists of tensors a converted loop carries as its state:

    hs = [torch.zeros(1, H) for _ in self.cells]
    for t in range(x.shape[1]):                 # a graph loop over a dynamic size
        for layer, cell in enumerate(self.cells):
            hs[layer] = cell(inp, hs[layer])     # -> hs = setitem(hs, layer, ...): a new list

A graph loop carries tensors only. A list (or tuple) variable of a fixed length is carried as one
value per entry: the loop's operators see the entries, the body the list rebuilt from them, and the
list the body hands back is split again (it must keep its length). After the loop the variable is
a list again. A list an earlier graph loop filled (a StackedList) is carried as its stacked rows. A
list the loop appends to is carried as rows instead (row_lists.py).
"""

from __future__ import annotations

import re

import torch

from deploy.rewriters import sites
from deploy.rewriters.values import (
    StackedList,
    Undefined,
    as_tensor_value,
    is_symbolic,
    is_tracing,
    zeros_shaped_like,
)


def _is_leaf(value: object) -> bool:
    return isinstance(value, (torch.Tensor, int, float, bool)) or is_symbolic(value)


def _is_state_list(value: object) -> bool:
    """A plain list or tuple of tensors and numbers, or of such lists (``pipeline = [[x] * 2 for ...]``:
    queues per stage), with at least one entry."""

    def entries_ok(v: object) -> bool:
        return type(v) in (list, tuple) and all(_is_leaf(e) or entries_ok(e) for e in v)

    return entries_ok(value) and len(value) > 0 and _count(_structure(value)) > 0


def _structure(value: object) -> tuple | None:
    """(type, entries' structures) of a nested list; None for a leaf."""
    if type(value) in (list, tuple):
        return type(value), tuple(_structure(v) for v in value)
    return None


def _count(structure: tuple | None) -> int:
    return 1 if structure is None else sum(_count(s) for s in structure[1])


def _leaves(value: object) -> list:
    return [value] if type(value) not in (list, tuple) else [leaf for v in value for leaf in _leaves(v)]


def _leaf_names(structure: tuple | None, name: str) -> list[str]:
    if structure is None:
        return [name]
    return [n for i, s in enumerate(structure[1]) for n in _leaf_names(s, f"{name}[{i}]")]


def _rebuilt(structure: tuple | None, flat: list) -> object:
    """The nested list of ``structure`` from its leaves (consumed from the front of ``flat``)."""
    if structure is None:
        return flat.pop(0)
    kind, entries = structure
    return kind(_rebuilt(s, flat) for s in entries)


def _zeros_like(value: object) -> object:
    if type(value) in (list, tuple):
        return type(value)(_zeros_like(v) for v in value)
    return zeros_shaped_like(as_tensor_value(value))


def _layout(value: object) -> tuple | None:
    """(structure, entries carried) of a list the loop carries: a Python list (or a list of lists) entry
    by entry; a list an earlier graph loop filled (``v[i] = ...`` over a StackedList) as its rows, one
    stacked tensor."""
    if _is_state_list(value):
        structure = _structure(value)
        return structure, _count(structure)
    if isinstance(value, StackedList) and is_tracing():
        return StackedList, 1
    return None


_TUPLE_OPTIONAL = re.compile(r"_deploy_opt_t(\d+)_")


def _tuple_optionals(args: tuple, names: tuple[str, ...]) -> dict[int, int]:
    """{slot: k} for the optionals still None that become tuples of k entries. A plain loop: this
    runs inside loop bodies dynamo traces, which cannot read a name a comprehension's ``:=`` binds."""
    sizes = {}
    for i, (value, ident) in enumerate(zip(args, names)):
        match = _TUPLE_OPTIONAL.match(ident)
        if match is not None and value is None:
            sizes[i] = int(match.group(1))
    return sizes


def _with_optionals_probed(args: tuple, names: tuple[str, ...], tuples: dict[int, int]) -> tuple:
    """``args`` for the probe: the tuple optionals as ``k`` int zeros (promoted to the entries' dtype
    by the cond), the other optionals still None as 0-d zeros (``v > best_val`` reads them)."""
    out = list(args)
    for i, (value, ident) in enumerate(zip(args, names)):
        if i in tuples:
            out[i] = tuple(torch.zeros((), dtype=torch.int64) for _ in range(tuples[i]))
        elif value is None and ident.startswith("_deploy_opt_"):
            out[i] = torch.zeros(())
    return tuple(out)


def result_lists_defined(args: tuple, names: tuple[str, ...], run) -> tuple:
    """``args`` where a `return` slot of the loop (``_deploy_last*``, no value before the loop), or
    an optional still None (``best = None``, set to a tuple ``(dr, dc)`` in the loop: passes/
    optionals.py), is a list or tuple in one probed iteration (``run(values)``: the new values): a
    list of zeros shaped like its entries, so the loop carries it entry by entry like any list
    (``return summary(games)`` of ``games = [0, 0]`` inside the loop)."""
    tuples = _tuple_optionals(args, names)
    slots = [
        i
        for i, (v, n) in enumerate(zip(args, names))
        if isinstance(v, Undefined) and n.startswith("_deploy_last")
    ]
    if not slots and not tuples:
        return args
    from deploy.rewriters.loop_common import _probe_values

    new_values = _probe_values(run, _with_optionals_probed(args, names, tuples) if tuples else args)
    if new_values is None:
        return args
    out = list(args)
    for i in [*slots, *tuples]:
        if _is_state_list(new_values[i]):
            out[i] = _zeros_like(new_values[i])
    return tuple(out)


class ListState:
    """How the loop variables ``args`` flatten: per variable None (as is) or its list's length/type."""

    def __init__(self, args: tuple, names: tuple[str, ...], site_id: int):
        rows = sites.get_site(site_id).row_appends  # lists the loop appends to: rows (row_lists.py)
        self.layout = [_layout(v) if n not in rows else None for v, n in zip(args, names)]
        self.site_id = site_id
        self.names = tuple(
            n2
            for n, entry in zip(names, self.layout)
            for n2 in (_leaf_names(entry[0], n) if entry and entry[0] is not StackedList else [n])
        )
        self.lists = tuple(n for n, entry in zip(names, self.layout) if entry)

    def __bool__(self) -> bool:
        return any(self.layout)

    def flat(self, values) -> tuple:
        out = []
        for value, entry in zip(values, self.layout):
            if entry is None:
                out.append(value)
                continue
            if entry[0] is StackedList:
                out.append(value.stacked_with_prefix() if isinstance(value, StackedList) else value)
                continue
            if _structure(value) != entry[0] or not _is_state_list(value):
                raise sites.get_site(self.site_id).error(
                    f"a list this loop carries ({', '.join(self.lists)}) must keep its length: a graph "
                    "loop carries a fixed number of values (write into a preallocated tensor instead)"
                )
            out.extend(_leaves(value))
        return tuple(out)

    def nested(self, flat) -> tuple:
        flat, out = list(flat), []
        for entry in self.layout:
            if entry is None:
                out.append(flat.pop(0))
            elif entry[0] is StackedList:
                out.append(StackedList([], flat.pop(0)))
            else:
                out.append(_rebuilt(entry[0], flat))
        return tuple(out)

    def index(self, position: int) -> int:
        """The flat position of the variable at ``position`` (a break flag: never a list)."""
        if position < 0:
            return position
        return sum(entry[1] if entry else 1 for entry in self.layout[:position])

    def while_loop(self, while_stmt, cond_fn, body_fn, args: tuple, site_id: int, lists: tuple, capacity):
        """``while_stmt`` (loop_operators.py) over the entries; ``capacity``: the body also appends."""

        def flat_body(*flat):
            out = body_fn(*self.nested(flat))
            return (self.flat(out[0]), out[1]) if capacity is not None else self.flat(out)

        result = while_stmt(
            lambda *flat: cond_fn(*self.nested(flat)),
            flat_body,
            self.flat(args),
            self.names,
            site_id,
            lists,
            None if capacity is None else lambda *flat: capacity(*self.nested(flat)),
        )
        return (self.nested(result[0]), result[1]) if capacity is not None else self.nested(result)

    def range_loop(self, for_range, bounds, body_fn, args: tuple, accumulators, break_index, skip_index):
        """``for_range`` (loop_operators.py) over the entries."""

        def flat_body(t, *flat):
            new, appended = body_fn(t, *self.nested(flat))
            return self.flat(new), appended

        flat_args, lists = for_range(
            bounds,
            flat_body,
            self.flat(args),
            accumulators,
            self.names,
            self.site_id,
            self.index(break_index),
            self.index(skip_index),
        )
        return self.nested(flat_args), lists
