"""The rows an inner loop appends per outer iteration (passes/nested_appends.py): ``chunk`` pads
them to the most the inner loop can append, with their count; ``unchunk`` keeps the counted rows of
every chunk, in order, after the outer loop. Eagerly a chunk is the inner list itself."""

from __future__ import annotations

import torch

from deploy.rewriters.values import StackedList, as_tensor_value, is_tracing


def chunk(rows, bounds: tuple, sites: int) -> tuple:
    """(rows padded to ``len(range(*bounds)) * sites`` rows, their count as a 0-d int64 tensor)
    while exporting; (the list, its length) eagerly."""
    if not is_tracing():
        return rows, len(rows)
    if isinstance(rows, StackedList):
        stacked = rows.stacked_with_prefix()
    elif rows:
        stacked = torch.stack([torch.as_tensor(v) for v in rows])
    else:
        raise ValueError("an inner loop whose list stays empty while tracing has no row shape")
    start, stop, step = (0, bounds[0], 1) if len(bounds) == 1 else (*bounds, 1)[:3]
    trips = (stop - start + step - 1) // step
    capacity = torch.sym_max(trips, 0) * sites  # (inside dynamo, builtin max of a size is not max)
    count = stacked.shape[0]
    torch._check(count <= capacity)
    padding = stacked.new_zeros((capacity - count, *stacked.shape[1:]))
    return torch.cat([stacked, padding]), as_tensor_value(count).reshape(()).to(torch.int64)


def unchunk(values, chunks, counts):
    """``values`` extended by every chunk's counted rows, in order."""
    if not is_tracing() or (isinstance(chunks, list) and all(isinstance(c, list) for c in chunks)):
        for rows in chunks:
            values.extend(rows)
        return values
    blocks = chunks.stacked_with_prefix() if isinstance(chunks, StackedList) else torch.stack(chunks)
    if isinstance(counts, StackedList):
        counts = counts.stacked_with_prefix()
    else:
        counts = torch.stack([as_tensor_value(c).reshape(()) for c in counts])
    capacity = blocks.shape[1]
    keep = torch.arange(capacity, dtype=torch.int64).unsqueeze(0) < counts.reshape(-1, 1)
    flat = blocks.reshape(-1, *blocks.shape[2:])
    positions = keep.reshape(-1).nonzero().squeeze(1)
    return StackedList(values, flat.index_select(0, positions))
