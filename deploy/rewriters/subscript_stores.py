"""``x[i] = v`` inside converted code (the reads are subscripts.py): in place eagerly, as Python
does; while exporting, functional stores (index_copy, slice_scatter, masked where, index_put) at
positions a converted loop or branch found, since graph-op bodies may not write into their inputs
and torch cannot store at a data-dependent int position.
"""

from __future__ import annotations

import torch

from deploy.rewriters.bounded_slices import RunTimeSlice, is_scalar_index, stored_in_slice, stored_in_window
from deploy.rewriters.run_time_positions import run_time_position, stored_at
from deploy.rewriters.subscripts import getitem, in_range
from deploy.rewriters.trace_state import in_loop_body_now
from deploy.rewriters.values import StackedList, as_tensor_value, is_sym_int, is_tracing


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
        position = in_range(entries[dim], obj.shape[dim])
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


def delitem(obj: object, index: object) -> object:
    """``del obj[index]`` inside converted code (passes/deletions.py): in place eagerly, the same
    object back; while exporting, a list a graph loop filled or carries (a StackedList, a RowList,
    a table of rows) without row ``index``, the rows after it moved up one."""
    if type(obj).__name__ == "RowList":
        return obj.pop(index)[0]
    if is_tracing() and isinstance(obj, StackedList):
        return StackedList([], _without_row(obj.stacked_with_prefix(), index))
    if is_tracing() and isinstance(obj, torch.Tensor):
        return _without_row(obj, index)
    if is_tracing() and isinstance(obj, list) and isinstance(index, int) and not is_sym_int(index):
        obj = list(obj)  # a list a converted loop carries: its input stays as it was
    del obj[index]
    return obj


def _without_row(rows: torch.Tensor, index: object) -> torch.Tensor:
    """``rows`` less row ``index`` (negative from the end) at a position known at run time: a
    gather of every row but that one."""
    count = rows.shape[0]
    position = as_tensor_value(index).to(torch.int64).reshape(())
    position = torch.where(position < 0, position + count, position)
    slots = torch.arange(torch.sym_max(count - 1, 0), dtype=torch.int64)
    return rows.index_select(0, torch.where(slots >= position, slots + 1, slots))


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
    position = in_range(entries[dim], obj.shape[dim])
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
