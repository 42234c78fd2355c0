"""Runtime operators for subscripts inside converted bodies: ``x[:, t]`` / ``x[:, t : t + k]`` read
with a converted loop's 0-d tensor counter ``t``, and ``x[i] = v`` stores.

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
    stored_in_slice,
    stored_in_window,
)
from deploy.rewriters.branch_guards import in_guarded_branch
from deploy.rewriters.casts import tensor
from deploy.rewriters.mappings import lookup, run_time_key
from deploy.rewriters.row_lists import list_item
from deploy.rewriters.run_time_positions import read_at, run_time_position, stored_at
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
    """``x`` at a 0-d ``index`` along ``dim``, clamped into range (``_in_range``); along a size that
    may be 0 (``idx[i]`` of a nonzero's positions, in a scan padded past its last entry) a zero entry
    appended after the last one is read where eager reads none."""
    size = x.shape[dim]
    if not is_sym_int(size) or statically_known_true(size >= 1):
        return x.index_select(dim, _in_range(index, size)).squeeze(dim)
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


def _in_range(index: torch.Tensor, size: object) -> torch.Tensor:
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


def setitem(obj: object, index: object, value: object) -> object:
    """``obj[index] = value`` inside a converted body: in place eagerly (same aliasing as Python);
    functional while exporting, since graph-op bodies may not mutate their inputs."""
    if is_tracing() and isinstance(obj, list) and isinstance(index, int) and not is_sym_int(index):
        # `hs[layer] = h` of a list a converted loop carries (list_state.py): a new list, so the
        # loop's input stays as it was
        obj = list(obj)
        obj[index] = value
        return obj
    if is_tracing() and isinstance(obj, list) and run_time_position(index):
        stored = stored_at(obj, index, value)
        if stored is not None:  # `points[w] = v`, `enabled[i] = False` at a run-time position
            return stored
    if is_tracing() and isinstance(obj, StackedList):  # `v[i] = x` of a list a graph loop filled
        return StackedList([], setitem(obj.stacked_with_prefix(), index, value))
    if type(obj).__name__ == "RowList":  # `bins[b] = v` of a list a graph loop carries (row_lists.py)
        return obj.put(index, value)
    if not (is_tracing() and isinstance(obj, torch.Tensor)):
        obj[index] = value
        return obj
    entries = index if isinstance(index, tuple) else (index,)
    scalar = [i for i, e in enumerate(entries) if is_scalar_index(e)]
    simple = all(isinstance(e, slice) and e == slice(None) for i, e in enumerate(entries) if i not in scalar)
    if len(scalar) == 1 and simple:
        dim = scalar[0]
        # clamped like reads: a branch computed but not taken (a select) may hold a position past
        # the end (`out[count] = v` once count reached the size), which eager never writes
        position = _in_range(entries[dim], obj.shape[dim])
        target = getitem(obj, index).shape
        value = _leading_ones_dropped(_update(value, obj), len(target)).expand(target)
        return obj.index_copy(dim, position, value.unsqueeze(dim))
    if len(scalar) == 1 and all(_static_slice(e) for i, e in enumerate(entries) if i not in scalar):
        # `weights[row, 1:] += d`, row read from the data: the row read, written, and put back
        return _row_store(obj, entries, scalar[0], _update(value, obj))
    cut = _one_run_time_slice(obj, entries, value)
    if cut is not None:  # `adj[:t] = adj[:t] / k`, t a loop counter
        return stored_in_slice(obj, cut, entries[cut], _update(value, obj))
    if _window_store(obj, entries, value):  # `best[y - 10 : y + 11, x0:x1] = 0.0`, y found at run time
        return stored_in_window(obj, entries, _update(value, obj))
    positions = _index_put_positions(entries)
    if positions is not None:
        # `no_sign[0, 5] = 10.0` in a branch: a functional index_put (a clone written in place inside
        # a graph op's body breaks torch.onnx's decompositions)
        return torch.ops.aten.index_put.default(obj, positions, _update(value, obj))
    result = obj.clone()
    result[index] = _update(value, obj)
    return result


def _static_slice(entry: object) -> bool:
    """A slice of Python-int (or omitted) bounds and no step but 1."""
    return (
        isinstance(entry, slice)
        and all(b is None or (type(b) is int and not is_sym_int(b)) for b in (entry.start, entry.stop))
        and entry.step in (None, 1)
    )


def _row_store(obj: torch.Tensor, entries: tuple, dim: int, value: torch.Tensor) -> torch.Tensor:
    """``obj[entries] = value`` with one run-time position (``dim``) and static slices elsewhere: the
    entry at the position is read by index_select, the slices written by slice_scatter, and the
    entry put back by index_copy (no clone written in place, no store at an unbacked int)."""
    position = _in_range(entries[dim], obj.shape[dim])
    row = obj.index_select(dim, position).squeeze(dim)
    rest = entries[:dim] + entries[dim + 1 :]
    target = row[rest].shape
    row = _sliced_store(row, rest, _leading_ones_dropped(value, len(target)).expand(target), 0)
    return obj.index_copy(dim, position, row.unsqueeze(dim))


def _sliced_store(x: torch.Tensor, slices: tuple, value: torch.Tensor, dim: int) -> torch.Tensor:
    """``x`` with ``x[slices] = value`` (static slices from ``dim`` on), functionally."""
    if dim == len(slices):
        return value
    cut = slices[dim]
    part = x[(slice(None),) * dim + (cut,)]
    return torch.slice_scatter(x, _sliced_store(part, slices, value, dim + 1), dim, cut.start, cut.stop)


def _one_run_time_slice(obj: torch.Tensor, entries: tuple, value: object) -> int | None:
    """The dim of ``x[a:b] = v`` (``adj[:t] = adj[:t] / k``, ``t`` a loop counter): one slice with a
    run-time bound and no step, every other entry whole, and a tensor value of at least one dim (a
    single value is a window store); None otherwise."""
    if not isinstance(value, torch.Tensor) or value.dim() == 0 or value.dim() > obj.dim():
        return None
    if len(entries) > obj.dim() or not all(isinstance(e, (slice, RunTimeSlice)) for e in entries):
        return None
    cut = [d for d, e in enumerate(entries) if not (isinstance(e, slice) and e == slice(None))]
    if len(cut) != 1 or entries[cut[0]].step is not None:
        return None
    return cut[0] if _run_time_bound(entries[cut[0]]) else None


def _run_time_bound(entry: object) -> bool:
    return any(run_time_position(b) for b in (entry.start, entry.stop) if b is not None)


def _window_store(obj: torch.Tensor, entries: tuple, value: object) -> bool:
    """Slices (no step) or single positions (``occ[s:d, w] = 1.0``, ``w`` a loop counter), one slice
    bound known only at run time, and one value stored."""
    if len(entries) > obj.dim() or not all(
        (isinstance(e, (slice, RunTimeSlice)) and e.step is None) or _position(e) for e in entries
    ):
        return False
    entries = tuple(e for e in entries if isinstance(e, (slice, RunTimeSlice)))
    if isinstance(value, torch.Tensor) and value.numel() != 1:
        return False
    bounds = [b for e in entries for b in (e.start, e.stop) if b is not None]
    if torch.compiler.is_dynamo_compiling():
        # a run-time int is a 0-d tensor there, or a symbolic int (`s = int(req[i, 0])`): torch
        # cannot store into a slice whose bounds are data-dependent, a masked store can
        return any(is_scalar_index(b) or is_sym_int(b) for b in bounds)
    return any(run_time_position(b) for b in bounds)


def _position(entry: object) -> bool:
    """One position: a Python int, a size or a 0-d integer tensor (a loop's counter)."""
    return (type(entry) is int) or is_sym_int(entry) or is_scalar_index(entry)


def _update(value: object, obj: torch.Tensor) -> torch.Tensor:
    """The value stored into ``obj``, in its dtype: a Python number as torch.full, not a constant
    tensor lifted into a graph op's body (which functionalisation and torch.onnx refuse there)."""
    return value.to(obj.dtype) if isinstance(value, torch.Tensor) else torch.full((), value, dtype=obj.dtype)


def _leading_ones_dropped(value: torch.Tensor, dims: int) -> torch.Tensor:
    """``value`` without the leading size-1 dims it has beyond ``dims``: ``sell[i] = t`` of a
    1-element ``t`` stores its one entry, as torch's setitem does."""
    while value.dim() > dims and not is_sym_int(value.shape[0]) and value.shape[0] == 1:
        value = value.squeeze(0)
    return value


def _position_list(entry: object) -> bool:
    """A 1-d integer tensor of positions."""
    return (
        isinstance(entry, torch.Tensor)
        and entry.dim() == 1
        and not entry.dtype.is_floating_point
        and entry.dtype != torch.bool
    )


def _index_put_positions(entries: tuple) -> list | None:
    """index_put's indices for entries that are ints, 0-d or 1-d integer tensors or full slices (at
    least one position; trailing full slices dropped); None for anything else."""
    positions = []
    for entry in entries:
        if is_scalar_index(entry):
            positions.append(entry.reshape(()).to(torch.int64))
        elif _position_list(entry):  # `used[channels[nbr]] = True`
            positions.append(entry.to(torch.int64))
        elif isinstance(entry, int) and not isinstance(entry, bool) and not is_sym_int(entry):
            positions.append(torch.full((), entry, dtype=torch.int64))
        elif is_sym_int(entry):  # `played[p, idx] = True`, idx = int(score.argmax().item())
            positions.append(as_tensor_value(entry).reshape(()).to(torch.int64))
        elif isinstance(entry, slice) and entry == slice(None):
            positions.append(None)
        else:
            return None
    while positions and positions[-1] is None:
        positions.pop()
    return positions if positions else None


def store(obj: object, index: object, value: object) -> object:
    """``obj[index] = value`` outside control-flow bodies, in place as in Python. While exporting, an
    index of 0-d integer tensors (``dist[goal[0], goal[1]] = 0.0``) is an index_put: Python's
    subscript would call ``.item()`` on each and store at a data-dependent position torch.export
    refuses. While a converted loop's body is traced (a helper it calls), functional (setitem):
    graph-op bodies may not write in place."""
    if is_tracing() and isinstance(obj, torch.Tensor) and _in_loop_body():
        return setitem(obj, index, value)
    entries = index if isinstance(index, tuple) else (index,)
    if (
        is_tracing()
        and isinstance(obj, torch.Tensor)
        and any(is_scalar_index(e) for e in entries)
        and all(is_scalar_index(e) or (isinstance(e, slice) and e == slice(None)) for e in entries)
    ):
        indices = [e.reshape(()).to(torch.int64) if is_scalar_index(e) else None for e in entries]
        while indices and indices[-1] is None:
            indices.pop()
        torch.ops.aten.index_put_.default(obj, indices, _update(value, obj))
        return obj
    obj[index] = value
    return obj


def _in_loop_body() -> bool:
    return in_loop_body_now()


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
