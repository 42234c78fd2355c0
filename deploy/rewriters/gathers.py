"""Runtime versions of the tensor ops that fix a size or shift to the example's value while
exporting (``t.unfold`` with a computed window, ``F.one_hot`` with a dynamic class count,
``torch.roll`` by a tensor): gathers over an arange that keep the value symbolic. Each is the
torch op itself when running eagerly.
"""

from __future__ import annotations

import torch

from deploy.rewriters.values import as_tensor_value, is_sym_int, is_symbolic, is_tracing


def unfold(value, dimension, size, step):
    """``value.unfold(dimension, size, step)``; while exporting with a symbolic ``size`` (``T // 2``
    of a dynamic ``T``) a gather of the windows' positions, since Tensor.unfold takes a specialised
    int there: the windows of the example's size only."""
    if not (isinstance(value, torch.Tensor) and value.dim() and is_tracing() and is_sym_int(size)):
        return value.unfold(dimension, size, step)
    dim = dimension % value.dim()
    count = (value.shape[dim] - size) // step + 1
    index = window_positions(count, size, step)
    windows = value.index_select(dim, index.reshape(-1))
    shape = (*value.shape[:dim], count, size, *value.shape[dim + 1 :])
    return windows.reshape(shape).movedim(dim + 1, -1)


def window_positions(count, size, step) -> torch.Tensor:
    """(count, size) int64: the positions window ``i`` covers, ``i * step + j`` (sizes may be symbolic)."""
    return torch.arange(count, dtype=torch.int64).unsqueeze(1) * step + torch.arange(size, dtype=torch.int64)


def one_hot(fn, indices, num_classes=-1):
    """``F.one_hot(k, n)`` (``fn`` the function the user's code names); while exporting with a
    symbolic ``n`` (a dynamic size) a comparison with an arange, since torch's one_hot fixes ``n`` to
    the example's value."""
    if fn is torch.nn.functional.one_hot and is_tracing() and is_sym_int(num_classes):
        classes = torch.arange(num_classes, dtype=torch.int64)
        return (indices.unsqueeze(-1).to(torch.int64) == classes).to(torch.int64)
    return fn(indices, num_classes)


def roll(value, shifts, dims=None):
    """``torch.roll(value, shifts, dims)``; while exporting with one shift that is a tensor or a
    symbolic int (``-int(round(k * dm))`` of a loop's counter), a gather of ``(i - shift) mod n``,
    since torch.roll's shift must be a Python int there."""
    if not isinstance(value, torch.Tensor):  # `q.roll(1)` of something else
        return value.roll(shifts) if dims is None else value.roll(shifts, dims)
    one_dim = dims is None or isinstance(dims, int) or (isinstance(dims, (tuple, list)) and len(dims) == 1)
    if not (is_tracing() and is_symbolic(shifts) and one_dim):
        return torch.roll(value, shifts) if dims is None else torch.roll(value, shifts, dims)
    source = value.reshape(-1) if dims is None else value
    dim = 0 if dims is None else (dims if isinstance(dims, int) else dims[0]) % value.dim()
    size = source.shape[dim]
    shift = as_tensor_value(shifts).to(torch.int64).reshape(())
    index = torch.remainder(torch.arange(size, dtype=torch.int64) - shift, size)
    rolled = source.index_select(dim, index)
    return rolled.reshape(value.shape) if dims is None else rolled
