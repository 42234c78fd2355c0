"""``all(test(o) for o in values if keep(o))`` and ``any(...)`` (passes/calls.py): a generator of
tests, as the list of its entries' truth values while exporting.

    all(state[o] == STANCE for o in others)   ->   _deploy_rt.all_of(lambda o: state[o] == STANCE,
                                                                      others, None)

Python's ``all`` asks each entry's truth in turn, a data-dependent branch on a tensor test. While
exporting, every entry is tested and the tests are combined as one bool tensor: ``all`` holds
where each kept entry passes (``test | ~kept``), ``any`` where some kept entry does. Kept entries
are those the ``if`` keeps, and those a comprehension with a tensor filter kept
(kept_rows.KeptRows: every row, with its flag). An entry whose ``if`` is a Python False is
skipped, as Python skips it. Eagerly, and where every test is a Python value, Python's own.
"""

from __future__ import annotations

import builtins

import torch

from deploy.rewriters.kept_rows import KeptRows
from deploy.rewriters.logic import _bool_tensor, truth
from deploy.rewriters.values import is_sym_int, is_symbolic, is_tracing


def all_of(test, values, keep=None) -> object:
    """``all(test(o) for o in values if keep(o))`` (``keep`` None: no ``if``)."""
    return _combined(test, values, keep, "all")


def any_of(test, values, keep=None) -> object:
    """``any(test(o) for o in values if keep(o))``."""
    return _combined(test, values, keep, "any")


def _combined(test, values, keep, how: str) -> object:
    entries = _entries(values) if is_tracing() else None
    if entries is None:
        chosen = (v for v in values if keep is None or keep(v))
        tests = (test(v) for v in chosen)
        return builtins.all(tests) if how == "all" else builtins.any(tests)
    pairs = []
    for value, kept in entries:
        if keep is not None:
            kept = _and(kept, truth(keep(value)))
        if not is_symbolic(kept) and not kept:
            continue  # an entry Python's `if` skips: not tested (it may not be computable)
        pairs.append((truth(test(value)), kept))
    if not any(is_symbolic(t) or is_symbolic(k) for t, k in pairs):
        results = (bool(t) for t, _ in pairs)
        return builtins.all(results) if how == "all" else builtins.any(results)
    if not pairs:
        return torch.full((), how == "all", dtype=torch.bool)
    tests = torch.stack([_bool_tensor(t) for t, _ in pairs])
    kept = torch.stack([_bool_tensor(k) for _, k in pairs])
    if how == "all":
        return torch.logical_or(tests, torch.logical_not(kept)).all()
    return torch.logical_and(tests, kept).any()


def _entries(values) -> list[tuple[object, object]] | None:
    """(entry, whether it is kept) of each entry while exporting; None where Python iterates (a
    tensor or kept list of a dynamic length)."""
    if isinstance(values, KeptRows):
        if is_sym_int(values.rows.shape[0]):
            return None
        return [(values.rows[i], values.keep[i]) for i in range(values.rows.shape[0])]
    if isinstance(values, torch.Tensor) and (values.dim() == 0 or is_sym_int(values.shape[0])):
        return None
    if not isinstance(values, (list, tuple, range, torch.Tensor)):
        return None
    return [(v, True) for v in values]


def _and(left: object, right: object) -> object:
    if is_symbolic(left) or is_symbolic(right):
        return torch.logical_and(_bool_tensor(left), _bool_tensor(right))
    return bool(left) and bool(right)
