"""``compact``: the values a loop appended on the iterations that appended (passes/continues.py gives
one flag per iteration), a StackedList with a data-dependent number of rows when the loop became a
graph op."""

from __future__ import annotations

import torch

from deploy.rewriters.values import StackedList


def compact(values, kept, site_id: int | None = None):
    """The values a loop appended on the iterations that appended (``kept`` holds one flag per
    iteration; see passes/continues.py): a StackedList with a data-dependent number of rows when the
    loop became a graph op, a plain list otherwise."""
    from deploy.rewriters.row_lists import RowList

    if getattr(kept, "applied", False):  # the loop appended by its flags already (counted_rows.py)
        return values
    if isinstance(values, RowList):  # an enclosing loop's list, appended to in this one
        return _compacted_tail(values, kept)
    if isinstance(values, StackedList):
        flags = (
            kept.stacked if isinstance(kept, StackedList) else torch.stack([torch.as_tensor(k) for k in kept])
        )
        # rows before the loop's (a list an earlier loop filled, merged into ``stacked``) are kept
        earlier = values.stacked.shape[0] - flags.shape[0]
        flags = (
            torch.cat([torch.ones(earlier, dtype=torch.bool), flags.bool()])
            if not _is_zero(earlier)
            else flags
        )
        rows = masked_rows(values.stacked, flags, kept if _is_zero(earlier) else None)
        peeled = list(kept.prefix) if isinstance(kept, StackedList) else []
        if not peeled or len(peeled) > len(values.prefix):
            return StackedList(values.prefix, rows, values.suffix)
        # iterations run before the graph loop (a peeled first one) appended or not by their flags
        # (a None value: no path of that iteration appended, whatever its flag's type); entries
        # before theirs were in the list before the loop (`visited = [state]`) and stay
        before = len(values.prefix) - len(peeled)
        pairs = [
            (v, k)
            for v, k in zip(values.prefix[before:], peeled)
            if v is not None and (isinstance(k, torch.Tensor) or k)
        ]
        if not pairs:
            return StackedList(values.prefix[:before], rows, values.suffix)
        early = torch.stack([torch.as_tensor(v) for v, _ in pairs])
        early_flags = torch.stack([torch.as_tensor(k, dtype=torch.bool).reshape(()) for _, k in pairs])
        rows = torch.cat([masked_rows(early, early_flags), rows])
        return StackedList(values.prefix[:before], rows, values.suffix)
    first = len(values) - len(kept)
    rows = list(zip(values[first:], kept))
    if not any(isinstance(k, torch.Tensor) for _, k in rows):
        return values[:first] + [v for v, k in rows if k]
    rows = [(v, k) for v, k in rows if isinstance(k, torch.Tensor) or k]
    if site_id is not None and any(isinstance(v, torch.nn.Module) for v, _ in rows):
        from deploy.rewriters.kept_objects import kept_objects  # modules appended (choice.Choice)

        held = kept_objects(values[:first], [v for v, _ in rows], [k for _, k in rows], site_id)
        if held is not None:
            return held
    # an iteration a tensor `break` may have skipped (a loop that stays Python) holds no value; its
    # flag is false wherever that is so, and a zero row stands in for it
    like = next((torch.as_tensor(v) for v, _ in rows if v is not None), None)
    if like is None:
        return values[:first]
    rows = [(torch.zeros_like(like) if v is None else v, k) for v, k in rows]
    stacked = torch.stack([torch.as_tensor(v) for v, _ in rows])
    flags = torch.stack([torch.as_tensor(k, dtype=torch.bool) for _, k in rows])
    return StackedList(values[:first], stacked[flags])


def _is_zero(size) -> bool:
    """Whether a (possibly symbolic) size is provably 0, without a guard."""
    from torch.fx.experimental.symbolic_shapes import statically_known_true

    return bool(statically_known_true(size == 0))


def masked_rows(rows: torch.Tensor, flags: torch.Tensor, owner: object = None) -> torch.Tensor:
    """``rows[flags]``; size-obliviously outside dynamo: the rows of ``range(1, n)`` number ``n - 1``,
    which the mask's metadata would otherwise guard to be at least 2 (``n >= 3``). The positions of
    a flags list (``owner``) are taken once: lists appended side by side share one (passes/
    continues.py), and their rows then number the same (one data-dependent length)."""
    positions = getattr(owner, "_deploy_positions", None)
    if positions is not None and positions[0] is flags:
        return rows.index_select(0, positions[1])
    if torch.compiler.is_dynamo_compiling():  # dynamo refuses to trace a config patch
        picked = flags.bool().nonzero().squeeze(1)
    else:
        with torch.fx.experimental._config.patch(backed_size_oblivious=True):
            picked = flags.bool().nonzero().squeeze(1)
    if isinstance(owner, StackedList):
        owner._deploy_positions = (flags, picked)
    return rows.index_select(0, picked)


def _compacted_tail(values, kept):
    """A RowList whose last rows a nested loop appended, one per iteration, with only those ``kept``
    flags (a StackedList or a list) mark: the rows not kept dropped, the ones after them moved up."""
    from deploy.rewriters.row_lists import RowList

    if isinstance(kept, StackedList):
        early = [torch.as_tensor(k, dtype=torch.bool).reshape(1) for k in kept.prefix]
        flags = (
            torch.cat([*early, kept.stacked.bool().reshape(-1)]) if early else kept.stacked.bool().reshape(-1)
        )
    elif kept:
        flags = torch.stack([torch.as_tensor(k, dtype=torch.bool).reshape(()) for k in kept])
    else:
        return values
    capacity = values.buffer.shape[0]
    tail = flags.shape[0]
    start = values.count.reshape(()) - tail
    offset = torch.arange(capacity, dtype=torch.int64) - start
    in_tail = (offset >= 0) & (offset < tail)
    padded = torch.cat([flags, torch.ones(1, dtype=torch.bool)])  # slots outside the tail are kept
    keep = padded.index_select(0, torch.where(in_tail, offset, torch.full_like(offset, tail)))
    destination = torch.where(
        keep, torch.cumsum(keep.to(torch.int64), 0) - 1, torch.full_like(offset, capacity)
    )
    buffer = torch.cat(
        [values.buffer, values.buffer.new_zeros((1, *values.buffer.shape[1:]))]
    )  # one spare slot the dropped rows land on
    buffer = buffer.index_copy(0, destination, values.buffer)
    return RowList(buffer[:capacity], start + flags.to(torch.int64).sum())
