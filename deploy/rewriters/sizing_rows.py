"""The run that finds the row shapes of lists a loop nested in a graph loop appends to
(counted_rows.counted_then_filled): each such list is a *sizing* RowList, a buffer with no room
whose shape names the list's position, and every append to it records the row's shape and dtype
instead of writing it. Kept apart from row_lists.py so that its appends (list_append) and the
loops that carry such lists can both tell a sizing list."""

from __future__ import annotations

import torch

from deploy.rewriters.values import is_row_list

SIZES: list[dict] = []  # while sizing: {list position: (row shape, dtype)}


def sizing_list(k: int):
    """List ``k`` of the loop while one probed iteration finds its rows' shape: a RowList with no
    room, its position in its buffer's shape (a graph op's branches pass it on as two tensors, and
    dynamo keeps shapes)."""
    from deploy.rewriters.row_lists import RowList

    return RowList(torch.zeros((0, k + 1), dtype=torch.uint8), torch.zeros((), dtype=torch.int64))


def sizing_index(rows: object) -> int | None:
    """The position of a sizing list, None for any other value."""
    if not is_row_list(rows):
        return None
    buffer = rows.buffer
    if buffer.dtype != torch.uint8 or buffer.dim() != 2 or buffer.shape[0] != 0:
        return None
    return int(buffer.shape[1]) - 1


def sizing_now() -> bool:
    """Inside the run that finds the rows' shapes."""
    return bool(SIZES)


def record(rows: object, row: torch.Tensor) -> bool:
    """Where ``rows`` is a sizing list: the shape of ``row`` recorded for it (True)."""
    index = sizing_index(rows) if SIZES else None
    if index is None:
        return False
    SIZES[-1][index] = (tuple(row.shape), row.dtype)
    return True
