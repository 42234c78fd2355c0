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


def _is_state_list(value: object) -> bool:
    return (
        isinstance(value, (list, tuple))
        and type(value) in (list, tuple)
        and len(value) > 0
        and all(isinstance(v, (torch.Tensor, int, float, bool)) or is_symbolic(v) for v in value)
    )


def _layout(value: object) -> tuple | None:
    """(type, entries carried) of a list the loop carries: a Python list entry by entry; a list an
    earlier graph loop filled (``v[i] = ...`` over a StackedList) as its rows, one stacked tensor."""
    if _is_state_list(value):
        return type(value), len(value)
    if isinstance(value, StackedList) and is_tracing():
        return StackedList, 1
    return None


def result_lists_defined(args: tuple, names: tuple[str, ...], run) -> tuple:
    """``args`` where a `return` slot of the loop (``_deploy_last*``, no value before the loop) is
    a list in one probed iteration (``run(values)``: the new values): a list of zeros shaped like
    its entries, so the loop carries it entry by entry like any list (``return summary(games)``
    of ``games = [0, 0]`` inside the loop)."""
    slots = [
        i
        for i, (v, n) in enumerate(zip(args, names))
        if isinstance(v, Undefined) and n.startswith("_deploy_last")
    ]
    if not slots:
        return args
    from deploy.rewriters.loop_common import _probe_values

    new_values = _probe_values(run, args)
    if new_values is None:
        return args
    out = list(args)
    for i in slots:
        value = new_values[i]
        if _is_state_list(value):
            out[i] = type(value)(zeros_shaped_like(as_tensor_value(v)) for v in value)
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
            for n2 in (
                [f"{n}[{i}]" for i in range(entry[1])] if entry and entry[0] is not StackedList else [n]
            )
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
            if not isinstance(value, (list, tuple)) or len(value) != entry[1]:
                raise sites.get_site(self.site_id).error(
                    f"a list this loop carries ({', '.join(self.lists)}) must keep its length: a graph "
                    "loop carries a fixed number of values (write into a preallocated tensor instead)"
                )
            out.extend(value)
        return tuple(out)

    def nested(self, flat) -> tuple:
        flat, out = list(flat), []
        for entry in self.layout:
            if entry is None:
                out.append(flat.pop(0))
            else:
                kind, length = entry
                out.append(StackedList([], flat[0]) if kind is StackedList else kind(flat[:length]))
                del flat[:length]
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
