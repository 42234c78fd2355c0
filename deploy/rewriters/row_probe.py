"""The rows of lists a loop carries (row_lists.py) when probing its body on the Python lists fails:
a body that pops a list or reads ``lengths[-1]`` raises there while the list is still empty (both
sides of a tensor `if` run in a probe, also the one eager takes only once the list has rows):

    values, lengths = [], []
    for t in range(1, x.shape[0]):
        if run < 2 and lengths:
            lengths[-1] = lengths[-1] + run     # IndexError on the empty probe list
            ...
        else:
            values.append(cur)

The body is probed again with each list a RowList of guessed rows, whose reads never raise (a
zero row where Python would raise, on a path eager does not take), its tensor `if`s as selects:
both sides run as Python, so every append records its row (an append in a cond branch that dynamo
traces records nothing: no side effects there). The guess: the rows already in
the list, else the shape and dtype its appends recorded so far, else 0-d rows of the default
float, int64, then bool dtype. It is probed again with what the appends record until that is
what was guessed, so the buffer holds the rows the appends make; no agreement, no rows (None).
"""

from __future__ import annotations

import contextlib

import torch

from deploy.rewriters.row_lists import RowList, as_row, recording
from deploy.rewriters.trace_state import TRACE_STATE

_DTYPES = (None, torch.int64, torch.bool)  # None: the default float dtype
_ATTEMPTS = 4


def probed_rows(args: tuple, names: tuple, positions: list[int], probe, partial: dict, static: dict):
    """{list name: (row shape, dtype, append sites seen)} from probing ``probe`` on RowLists of
    guessed rows (see the module docstring); ``partial``: what the failed probe recorded. None
    when no guess agrees with what the appends make."""
    guess, tried = {}, {}
    for i in positions:
        if args[i]:
            first = as_row(args[i][0])
            guess[names[i]] = (tuple(first.shape), first.dtype)
        elif names[i] in partial:
            guess[names[i]] = partial[names[i]][:2]
        else:
            guess[names[i]] = ((), torch.get_default_dtype())
            tried[names[i]] = 0
    for _ in range(_ATTEMPTS):
        trial = list(args)
        for i in positions:
            trial[i] = _guessed(args[i], *guess[names[i]], static.get(names[i], (None,))[0] or 1)
        with recording() as record, _selects():
            try:
                probe(tuple(trial))
                ok = True
            except Exception:  # torch's many internal error types: guess again
                ok = False
        seen = {n: tuple(record[n][:2]) for n in guess if n in record}
        if ok and all(seen.get(n, g) == g for n, g in guess.items()):
            return record
        changed = False
        for n, g in guess.items():
            if n in seen and seen[n] != g:
                guess[n], changed = seen[n], True
            elif not ok and n not in seen and n in tried and tried[n] + 1 < len(_DTYPES):
                tried[n] += 1
                guess[n], changed = ((), _DTYPES[tried[n]] or torch.get_default_dtype()), True
        if not changed:
            return None
    return None


@contextlib.contextmanager
def _selects():
    """Within: a tensor `if` in a loop body is a select (trace_state.py)."""
    previous = TRACE_STATE.conds_in_body
    TRACE_STATE.conds_in_body = False
    try:
        yield
    finally:
        TRACE_STATE.conds_in_body = previous


def _guessed(rows: list, shape: tuple, dtype: torch.dtype, sites: int) -> RowList:
    """A RowList of ``rows`` with room for one iteration's ``sites`` appends."""
    buffer = torch.zeros((len(rows) + sites, *shape), dtype=dtype)
    if rows:
        stacked = torch.stack([as_row(v, dtype).to(dtype) for v in rows])
        buffer = torch.cat([stacked, buffer[len(rows) :]])
    return RowList(buffer, torch.full((), len(rows), dtype=torch.int64))
