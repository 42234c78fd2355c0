"""Lookups in a Python dict of numbers at a key known only while the program runs:

    ADJUST = {3: -2.0, 4: -1.0, 6: -1.0}
    index = best[: BEST_OF[m]].mean() + ADJUST.get(m, 0.0)     # m: a size a converted branch set

Python would hash the key (a symbolic size or a 0-d tensor cannot be hashed; hashing a size would
also fix it to the example). While exporting, such a lookup compares the key with every int key
of the dict and picks that key's value (``torch.where``), else the default; ``d[k]`` of a key that
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
    return all(type(k) is int for k in mapping) and all(type(v) in (int, float) for v in mapping.values())


def lookup(mapping: dict, key: object, default: object = _MISSING) -> object:
    """``mapping[key]`` / ``mapping.get(key, default)`` at a run-time key (see above)."""
    position = as_tensor_value(key).reshape(()).to(torch.int64)
    floats = any(type(v) is float for v in mapping.values()) or isinstance(default, float)
    dtype = torch.get_default_dtype() if floats else torch.int64
    if default is _MISSING:
        default = next(iter(mapping.values()))
    result = tensor(default).to(dtype)  # a number: the table's or the caller's default
    for k, v in mapping.items():
        result = torch.where(position == k, tensor(v).to(dtype), result)
    return result


def mapping_get(owner: object, *args, **kwargs) -> object:
    """``owner.get(key, default)``: a dict's run-time key with a number default as above; any other
    call (a missing key's None cannot be a tensor) as Python makes it."""
    if len(args) == 2 and not kwargs and type(args[1]) in (int, float) and run_time_key(owner, args[0]):
        return lookup(owner, args[0], args[1])
    return owner.get(*args, **kwargs)
