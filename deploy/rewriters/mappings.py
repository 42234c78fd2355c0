"""Lookups in a Python dict of numbers at a key known only while the program runs:

    ADJUST = {3: -2.0, 4: -1.0, 6: -1.0}
    index = best[: BEST_OF[m]].mean() + ADJUST.get(m, 0.0)     # m: a size a converted branch set

Python would hash the key (a symbolic size or a 0-d tensor cannot be hashed; hashing a size would
also fix it to the example). While exporting, such a lookup compares the key with every int key
of the dict and picks that key's value (``torch.where``), else the default (values that are
equal-length tuples of numbers, ``DEMANDS = {DRAG: (0.6, 0.2, 0.0), ...}``, are rows: a 1-d tensor); ``d[k]`` of a key that
is none of them (a KeyError eagerly) takes the first value, read only on paths eager never takes.
Anything else is Python's own lookup.
"""

from __future__ import annotations

import torch

from deploy.rewriters.casts import tensor
from deploy.rewriters.values import as_tensor_value, is_sym_int, is_tracing

_MISSING = object()


def run_time_key(mapping: object, key: object) -> bool:
    """A dict whose keys are ints and values numbers, looked up at a symbolic or tensor key."""
    if not (is_tracing() and isinstance(mapping, dict) and mapping):
        return False
    if not (is_sym_int(key) or (isinstance(key, torch.Tensor) and key.numel() == 1)):
        return False
    if not all(type(k) is int for k in mapping):
        return False
    values = list(mapping.values())
    if all(type(v) in (int, float) for v in values):
        return True
    # rows: `DEMANDS = {PENETRATE: (0.6, 0.1, 0.0), ...}` looked up by a state a converted loop carries
    return all(_row(v) and len(v) == len(values[0]) for v in values)


def _row(value: object) -> bool:
    return type(value) in (tuple, list) and len(value) > 0 and all(type(v) in (int, float) for v in value)


def lookup(mapping: dict, key: object, default: object = _MISSING) -> object:
    """``mapping[key]`` / ``mapping.get(key, default)`` at a run-time key (see above)."""
    position = as_tensor_value(key).reshape(()).to(torch.int64)
    numbers = [n for v in mapping.values() for n in (v if _row(v) else (v,))]
    floats = any(type(n) is float for n in numbers) or isinstance(default, float)
    dtype = torch.get_default_dtype() if floats else torch.int64
    if default is _MISSING:
        default = next(iter(mapping.values()))
    result = tensor(list(default) if _row(default) else default).to(dtype)  # the table's or the caller's
    for k, v in mapping.items():
        result = torch.where(position == k, tensor(list(v) if _row(v) else v).to(dtype), result)
    return result


def mapping_get(owner: object, *args, **kwargs) -> object:
    """``owner.get(key, default)``: a dict's run-time key with a number default as above; any other
    call (a missing key's None cannot be a tensor) as Python makes it."""
    if len(args) == 2 and not kwargs and type(args[1]) in (int, float) and run_time_key(owner, args[0]):
        return lookup(owner, args[0], args[1])
    return owner.get(*args, **kwargs)
