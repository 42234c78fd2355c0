"""Windows of a static length at a run-time start, ``x[t : t + k]`` (or ``x[t - k : t]``, ``x[i * k :
(i + 1) * k]``) in a converted loop's body, ``t`` its 0-d tensor counter.

Python's slice comes out shorter where the window runs past the end (``x[n - 1 : n + 2]`` has one
entry), so while exporting the window is first read as Python reads it: a narrow of the resolved
start and length (bounded_slices.sliced), a size of its own inside the body. A mean or a sum of
it is then what eager computes at every position. Where the body needs the window's length to be
``k`` (a product with a ``k``-entry kernel, a value the loop carries), torch cannot prove it and the
export fails; the exporter then exports again with every window read as ``k`` entries from its start
(``static_spans``; a position past the end reads the last entry), which is what eager computes
wherever the window lies inside the tensor, and verification against eager checks the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch

from deploy.rewriters.bounded_slices import RunTimeSlice, slice_of, sliced
from deploy.rewriters.values import as_tensor_value, is_sym_int, is_tracing


class Span:
    """``t : t + length`` with a static ``length`` (the slice ``x[:, t : t + 2]`` in a loop body)."""

    def __init__(self, start: object, length: int):
        self.start, self.length = start, length

    def as_slice(self) -> slice:
        return slice(self.start, self.start + self.length)


def span(start: object, length: int) -> object:
    """The slice ``start : start + length``; a Span while exporting with a tensor ``start``."""
    if (
        is_tracing()
        and isinstance(start, torch.Tensor)
        and isinstance(length, int)
        and not is_sym_int(length)
    ):
        return Span(start, length)
    return slice_of(start, start + length)  # (tensor bounds: a RunTimeSlice while exporting)


class _State:
    static = False  # every window read as `length` entries from its start (the exporter's retry)
    asked = False  # a window was read while exporting (so the retry may change the program)


STATE = _State()


@torch._dynamo.assume_constant_result
def static_spans_now() -> bool:
    """Whether windows are read as ``length`` entries; notes that one was read (dynamo runs this as
    it is, so the note is taken inside the bodies it traces too)."""
    STATE.asked = True
    return STATE.static


def spans_static() -> bool:
    """Whether windows are read as ``length`` entries now (outside any trace)."""
    return STATE.static


@contextmanager
def static_spans(static: bool) -> Iterator[_State]:
    """Within: windows read with ``static`` lengths (see module docstring); ``.asked`` tells whether
    any window was read."""
    previous = STATE.static, STATE.asked
    STATE.static, STATE.asked = static, False
    try:
        yield STATE
    finally:
        STATE.static, STATE.asked = previous[0], previous[1] or STATE.asked  # an outer one asks too


def read_window(x: torch.Tensor, dim: int, entry: Span) -> torch.Tensor:
    """``x`` along ``dim`` at the window ``entry``."""
    if not static_spans_now():
        entries = (slice(None),) * dim + (RunTimeSlice(entry.start, entry.start + entry.length),)
        return sliced(x, entries, entry.length)
    start = as_tensor_value(entry.start).reshape(1).to(torch.int64)
    positions = start + torch.arange(entry.length, dtype=torch.int64)
    size = x.shape[dim]
    last = as_tensor_value(size) - 1 if is_sym_int(size) else torch.full((1,), size - 1, dtype=torch.int64)
    return x.index_select(dim, torch.minimum(positions, last.reshape(1)))
