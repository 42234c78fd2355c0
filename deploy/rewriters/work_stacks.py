"""Python lists used as a work stack or queue by the `while` loop they drive:

    stack = [(0, n - 1)]
    while stack:                                  # also `while len(stack) > 0`, `while stack and t`
        i, j = stack.pop()                        # `stack.pop(0)`: a queue
        ...
        if k < 0:                                 # a tensor test
            continue
        stack.append((i, k))
        stack.append((k, j))

The list is a loop variable carried as a RowList (row_lists.py): a buffer of rows (a tuple of ints
or 0-d tensors becomes one int64 row) and a count; ``pop`` reads a row and closes the gap, the
test is ``count > 0``. While exporting the list is converted before the first test, so the loop is
a graph loop from the start (Python would run the first iterations on the example's values).

The buffer needs room for the most rows the list can hold. With a step counter bounding the loop
(``while stack and steps < budget``) that is the rows before it plus one per append statement per
iteration. Without one, the iterations that push are taken to be at most the number of elements
of the largest tensor the loop carries: a work stack over positions (intervals split at a kept
point, cells of a flood fill marked as visited) pushes only from iterations that mark a new
position of that tensor. Pushes from a loop nested in the body (`for c in children(obj): if not
marked[c]: marked[c] = True; stack.append(c)`) are bounded the same way, each marking a new
position, so the room counts them once. A loop that carries no tensor has no such bound and is
refused, naming its line. Eagerly everything is plain Python.
"""

from __future__ import annotations

import torch

from deploy.rewriters import sites


def _room_from_carried(args: tuple, site_id: int):
    """The most elements of a tensor among the loop variables (a symbolic size when dynamic)."""
    sizes = [v.numel() for v in args if isinstance(v, torch.Tensor) and v.dim() > 0]
    if not sizes:
        raise sites.get_site(site_id).error(
            "this `while` loop uses a list as a work stack (`.pop()` and `.append(...)`), but no "
            "bound on the rows it can hold is known: bound the loop with a step counter (`while "
            "stack and steps < max_steps:` with `steps += 1` in the body), or carry a tensor whose "
            "positions the pushes mark"
        )
    room = sizes[0]
    for size in sizes[1:]:
        room = torch.sym_max(room, size)
    return room


def stack_while(while_fn, cond_fn, body_fn, args: tuple, names: tuple, site_id: int, row_room):
    """``while_fn`` (loop_operators.while_stmt) over a loop driven by a work stack, its lists
    carried as RowLists from the first test; None when no variable is a list."""
    from deploy.rewriters.row_loops import while_as_rows

    if not any(isinstance(v, list) for v in args):
        return None
    room = row_room(*args) if row_room is not None else None
    if room is None:
        room = _room_from_carried(args, site_id)
    return while_as_rows(while_fn, cond_fn, body_fn, args, names, site_id, room, probing=False)
