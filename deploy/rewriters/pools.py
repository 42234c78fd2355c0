"""``F.avg_pool2d(x, k)`` / ``F.max_pool2d(x, k)`` (1d, 2d, 3d) whose window, stride or padding is
a size computed from the input's (``k = math.ceil(max(h, w) / max_side)``): torch's pooling takes
them as plain ints and cannot decide a symbolic one while exporting. There the pool is written as
a gather of each window's positions and a sum (or max) over them, divided by the number of
positions torch's own kernel counts; otherwise, and for plain-int arguments, it is torch's own
(passes/calls.py routes the calls).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.fx.experimental.symbolic_shapes import statically_known_true

from deploy.rewriters.gathers import window_positions
from deploy.rewriters.values import is_sym_int, is_tracing

_AVG = [F.avg_pool1d, F.avg_pool2d, F.avg_pool3d]
_MAX = [F.max_pool1d, F.max_pool2d, F.max_pool3d]
_AVG_NAMES = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")
_MAX_NAMES = ("kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices")
_DEFAULTS = {
    "stride": None,
    "padding": 0,
    "ceil_mode": False,
    "count_include_pad": True,
    "divisor_override": None,
    "dilation": 1,
    "return_indices": False,
}


def pool(fn, value, *args, **kwargs):
    """``fn(value, *args, **kwargs)`` for a torch pooling function ``fn``."""
    if not (is_tracing() and any(is_sym_int(v) for v in _flat([*args, *kwargs.values()]))):
        return fn(value, *args, **kwargs)
    average = any(fn is f for f in _AVG)
    family = _AVG if average else _MAX if any(fn is f for f in _MAX) else None
    spatial = family.index(fn) + 1 if family else 0
    options = _bound(average, args, kwargs) if spatial and isinstance(value, torch.Tensor) else None
    windows = _windows(options, spatial, value) if options is not None else None
    if windows is None:  # not torch's pool, a dilation, indices asked for
        return fn(value, *args, **kwargs)
    return _pooled(value, spatial, average, options, windows)


def _flat(values: list) -> list:
    return [v for value in values for v in (value if isinstance(value, (tuple, list)) else [value])]


def _bound(average: bool, args: tuple, kwargs: dict) -> dict | None:
    names = _AVG_NAMES if average else _MAX_NAMES
    if len(args) > len(names) or set(kwargs) - set(names):
        return None
    options = {name: _DEFAULTS.get(name) for name in names[1:]}
    options.update(zip(names, args))
    options.update(kwargs)
    return options if "kernel_size" in options else None


def _per_dim(value, spatial: int) -> list | None:
    if isinstance(value, (tuple, list)):
        return list(value) if len(value) == spatial else (list(value) * spatial if len(value) == 1 else None)
    return [value] * spatial


def _windows(options: dict, spatial: int, value: torch.Tensor) -> list | None:
    """Per spatial dim: (length, window, stride, padding, output length), or None for what the
    gather does not cover."""
    dilation = _per_dim(options.get("dilation") or 1, spatial)
    if options.get("return_indices") or dilation is None or any(d != 1 for d in dilation):
        return None
    kernel = _per_dim(options["kernel_size"], spatial)
    given = options["stride"]  # None or empty: the window's size, as torch's
    stride = _per_dim(options["kernel_size"] if given is None or given in ([], ()) else given, spatial)
    padding = _per_dim(options["padding"], spatial)
    if kernel is None or stride is None or padding is None or value.dim() < spatial + 1:
        return None
    ceil = bool(options["ceil_mode"])
    dims = []
    for length, k, s, p in zip(value.shape[-spatial:], kernel, stride, padding):
        out = (length + 2 * p - k + (s - 1 if ceil else 0)) // s + 1
        # ceil mode drops a last window that would start in the right padding; with s + p <= k none does
        if ceil and not statically_known_true(s + p <= k):
            out = torch.sym_ite((out - 1) * s >= length + p, out - 1, out)
        dims.append((length, k, s, p, out))
    return dims


def _pooled(value: torch.Tensor, spatial: int, average: bool, options: dict, windows: list) -> torch.Tensor:
    fill = 0.0 if average else float("-inf")
    pads = []
    for length, k, s, p, out in reversed(windows):  # F.pad lists the last dim first
        pads += [p, (out - 1) * s + k - length - p]
    padded = F.pad(value, pads, value=fill)
    lead = value.dim() - spatial
    for axis, (_, k, s, _, out) in enumerate(windows):  # each dim: (output position, window position)
        dim = lead + 2 * axis
        padded = padded[(slice(None),) * dim + (window_positions(out, k, s),)]
    reduced = tuple(lead + 2 * axis + 1 for axis in range(spatial))
    if not average:
        return padded.amax(dim=reduced)
    total = padded.sum(dim=reduced)
    if options.get("divisor_override"):
        return total / options["divisor_override"]
    return total / _counts(windows, bool(options["count_include_pad"])).to(total.dtype)


def _counts(windows: list, include_pad: bool) -> torch.Tensor:
    """The divisor torch's avg pool uses per output position: the window's positions that lie in
    the padded input (``include_pad``) or in the input, window ends clipped at the padded end."""
    counts = None
    for axis, (length, k, s, p, out) in enumerate(windows):
        start = torch.arange(out, dtype=torch.int64) * s - p
        end = torch.clamp(start + k, max=length + p)
        if not include_pad:
            start, end = torch.clamp(start, min=0), torch.clamp(end, max=length)
        count = (end - start).clamp(min=0).reshape([-1] + [1] * (len(windows) - axis - 1))
        counts = count if counts is None else counts * count
    return counts
