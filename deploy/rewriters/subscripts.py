"""Runtime operators for subscripts inside converted bodies: ``x[:, t]`` / ``x[:, t : t + k]`` read
with a converted loop's 0-d tensor counter ``t`` (the stores ``x[i] = v`` are subscript_stores.py).

While exporting, a counter entry becomes index_select (+ squeeze for a single position): dynamo
would otherwise call ``.item()`` on it. Eagerly (and for Python indices) these are plain subscripts.
"""

from __future__ import annotations

import torch
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters.bounded_slices import (
    RunTimeSlice,
    is_scalar_index,
    narrowed,
    run_time_bounds,
    sliced,
)
from deploy.rewriters.branch_guards import in_guarded_branch
from deploy.rewriters.casts import tensor
from deploy.rewriters.mappings import lookup, run_time_key
from deploy.rewriters.row_lists import list_item
from deploy.rewriters.run_time_positions import read_at, run_time_position
from deploy.rewriters.string_keys import StringKey, keyed_entries
from deploy.rewriters.trace_state import in_loop_body_now, selects_in_body_now
from deploy.rewriters.values import StackedList, as_tensor_value, is_row_list, is_sym_int, is_tracing
from deploy.rewriters.window_spans import Span, read_window

_ELLIPSIS = type(Ellipsis)


def _new_axis_or_rest(entry: object) -> bool:
    """``None`` or ``...`` in a subscript. Asked by type: within dynamo (a loop body it traces) ``entry
    is None`` of a slice with symbolic bounds (``H // 2 - 2 : H // 2 + 2``) makes it a constant,
    which fixes the bounds to the example's sizes."""
    return isinstance(entry, (type(None), _ELLIPSIS))


def _plain(index: object) -> object:
    if isinstance(index, tuple):
        return tuple(e.as_slice() if isinstance(e, (Span, RunTimeSlice)) else e for e in index)
    return index.as_slice() if isinstance(index, (Span, RunTimeSlice)) else index


def getitem(obj: object, index: object) -> object:
    """``obj[index]`` where the index may hold a converted loop's 0-d tensor counter."""
    if isinstance(index, StringKey):  # `COOLING[mode]`, mode a string state a converted loop carries
        obj, index = keyed_entries(obj, index), index.code
    if is_row_list(obj):  # `known[i]` in a helper the list was passed to (row_lists.RowList)
        return list_item(obj, _plain(index))
    if isinstance(obj, StackedList) and is_tracing():
        if isinstance(index, (slice, RunTimeSlice)):  # ``xs[1:j]``: still a list (its own slicing)
            return obj[_plain(index)]
        obj = obj.stacked_with_prefix()  # ``gaps[k]``: a row of a loop's appended values
    if run_time_key(obj, index):  # `ADJUST[m]` of a dict, m a size a converted branch set
        return lookup(obj, index)
    if is_tracing() and isinstance(obj, (tuple, list)) and run_time_position(index):
        row = read_at(obj, index)
        if row is not None:  # `BASE_RATES[tier]`, tier set by a converted branch
            return row
    if not (is_tracing() and isinstance(obj, torch.Tensor)):
        return obj[_plain(index)]
    if in_guarded_branch() and type(index) is int and obj.dim() and is_sym_int(obj.shape[0]):
        return _read_or_zeros(obj, index)
    entries = index if isinstance(index, tuple) else (index,)
    if run_time_bounds(entries):  # `tokens[:n]`, n = int(count.item())
        return sliced(obj, entries)
    if any(isinstance(e, RunTimeSlice) for e in entries) and not any(_new_axis_or_rest(e) for e in entries):
        # `img[:, top:bottom, left]`: the run-time slices first, then the rest of the index
        obj = sliced(obj, tuple(e if isinstance(e, RunTimeSlice) else slice(None) for e in entries))
        entries = tuple(slice(None) if isinstance(e, RunTimeSlice) else e for e in entries)
        index = entries if isinstance(index, tuple) else entries[0]
    if isinstance(index, int) and not is_sym_int(index) and obj.dim() and is_sym_int(obj.shape[0]):
        if in_loop_body_now():
            # `prev[0]` of a carried value inside a loop body: torch's bounds check on its
            # data-dependent size would be a guard on the loop's input (passes/subscripts.py)
            position = torch.full((), index, dtype=torch.int64)
            entries = (position + obj.shape[0] if index < 0 else position,)
            index = entries[0]
        elif (
            index < 0
            and torch.compiler.is_dynamo_compiling()
            and not statically_known_true(obj.shape[0] >= -index)
        ):
            return obj[obj.shape[0] + index]  # `kept[-1]`: dynamo cannot guard its bounds in a cond
    if any(_int_list(e) for e in entries):
        # `frame[[11, 13, 15], 2]`: torch would make the list a constant tensor, which in a graph
        # op's body is lifted in a way torch.onnx's decompositions cannot run
        entries = tuple(tensor(e) if _int_list(e) else e for e in entries)
        index = entries if isinstance(index, tuple) else entries[0]
    if any(is_scalar_index(e) for e in entries) and any(is_sym_int(e) for e in entries):
        # `suits[p, idx]`, p a 0-d tensor and idx = int(score.argmax().item()): both read as positions
        entries = tuple(
            as_tensor_value(e).reshape(()).to(torch.int64) if is_sym_int(e) else e for e in entries
        )
        index = entries if isinstance(index, tuple) else entries[0]
    if not any(is_scalar_index(e) or isinstance(e, Span) for e in entries):
        narrow = narrowed(obj, entries)  # `temps[:target]`, target a search's index (search_indices.py)
        return obj[index] if narrow is None else narrow
    consuming = sum(1 for e in entries if not _new_axis_or_rest(e))
    basic, positions, out_dim = [], [], 0
    for entry in entries:
        if is_scalar_index(entry) or isinstance(entry, Span):
            basic.append(slice(None))
            positions.append((out_dim, entry))
            out_dim += 1
        elif isinstance(entry, _ELLIPSIS):
            basic.append(entry)
            out_dim += obj.dim() - consuming
        elif isinstance(entry, int):
            basic.append(entry)
        else:
            basic.append(entry)
            out_dim += 1
    # `x[:]` would be an alias of a graph op's input, which functionalisation later refuses
    result = obj if all(b == slice(None) for b in basic) else obj[tuple(basic)]
    for dim, entry in reversed(positions):
        if isinstance(entry, Span):  # x[:, t : t + k] (window_spans.py)
            result = read_window(result, dim, entry)
            continue
        result = _read_position(result, dim, entry)
    return result


def _read_position(x: torch.Tensor, dim: int, index: torch.Tensor) -> torch.Tensor:
    """``x`` at a 0-d ``index`` along ``dim``, clamped into range (``in_range``); along a size that
    may be 0 (``idx[i]`` of a nonzero's positions, in a scan padded past its last entry) a zero entry
    appended after the last one is read where eager reads none."""
    size = x.shape[dim]
    if not is_sym_int(size) or statically_known_true(size >= 1):
        return x.index_select(dim, in_range(index, size)).squeeze(dim)
    pad = list(x.shape)
    pad[dim] = 1
    padded = torch.cat([x, x.new_zeros(pad)], dim)
    position = torch.minimum(_non_negative(index, size), as_tensor_value(size).reshape(1))
    return padded.index_select(dim, position).squeeze(dim)


def nonzero_read(obj: object, index: object) -> object:
    """``torch.nonzero(mask)[i, ...]`` (passes/calls.py): in a branch computed whether or not it is
    taken (a select in a loop body, a guarded branch at the top level), zeros where the mask has too
    few entries rather than a gather out of range; the entry itself wherever eager reads it."""
    entries = index if isinstance(index, tuple) else (index,)
    first = entries[0]
    if (
        is_tracing()
        and isinstance(obj, torch.Tensor)
        and type(first) is int
        and obj.dim()
        and is_sym_int(obj.shape[0])
        and (in_guarded_branch() or selects_in_body_now())
    ):
        row = _read_or_zeros(obj, first)
        return row[entries[1:]] if len(entries) > 1 else row
    return obj[index]


def _read_or_zeros(obj: torch.Tensor, index: int) -> torch.Tensor:
    """``obj[index]`` of a dynamic size in a branch computed whether or not it is taken (a fact
    torch learnt in either branch holds for both: no proof that the read is in range): on the
    path where eager reads it, the entry; where eager would not (``slashes[1]`` under ``if
    slashes.numel() >= 3`` of an URL with one slash), zeros rather than a read out of range."""
    size = obj.shape[0]
    padded = torch.cat([obj, torch.zeros((1, *obj.shape[1:]), dtype=obj.dtype)])
    position = torch.full((1,), index, dtype=torch.int64)
    position = position + size if index < 0 else position
    inside = torch.logical_and(position >= 0, position < size)
    position = torch.where(inside, position, torch.full((1,), 1, dtype=torch.int64) * size)
    return padded.index_select(0, position)[0]


def _non_negative(index: torch.Tensor, size: object) -> torch.Tensor:
    """A negative position counted from the end, as eager does (``marked[c]`` with ``c = -1``, read
    by the graph where Python short-circuits ``c >= 0 and not marked[c]``), clamped at 0."""
    index = index.reshape(-1).to(torch.int64)
    return torch.where(index < 0, index + as_tensor_value(size), index).clamp(min=0)


def in_range(index: torch.Tensor, size: object) -> torch.Tensor:
    """A read position clamped to the last entry: the graph evaluates both sides of `and`, so
    ``i < n and x[:, i] > 0`` reads x[:, n] after the loop's last step, a read Python short-circuits
    away (a read eager really makes out of range raises there anyway)."""
    last = as_tensor_value(size) - 1 if is_sym_int(size) else torch.full((1,), size - 1, dtype=torch.int64)
    return torch.minimum(_non_negative(index, size), last.reshape(1))


def _int_list(entry: object) -> bool:
    return (
        isinstance(entry, list)
        and bool(entry)
        and all(isinstance(v, int) and not isinstance(v, bool) and not is_sym_int(v) for v in entry)
    )


def truncate(x: object, dim: int, limit: object, keep_last: bool = False) -> object:
    """``x[:limit]`` (``x[-limit:]`` with ``keep_last``) on dim ``dim`` (passes/truncations.py).
    While exporting over a dynamic size, a narrow to ``Min(size, limit)``: a plain slice would
    guard on ``size < limit`` and specialise the dim."""
    size = x.shape[dim] if isinstance(x, torch.Tensor) else None
    if is_tracing() and is_sym_int(size) and isinstance(limit, int) and limit >= 0:
        count = torch.sym_min(size, limit)
        # gathered rather than a view: whether the cut view is contiguous (``s == Min(64, s)``) would
        # be decided at the example's size by later ops, a guard that fixes the dim's range
        first = size - count if keep_last else 0
        return x.index_select(dim, torch.arange(count, dtype=torch.int64) + first)
    index = [slice(None)] * dim + [slice(-limit, None) if keep_last else slice(None, limit)]
    return x[tuple(index)]
