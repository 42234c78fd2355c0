"""Runtime operators for loops over lists the function builds, or over tensors' rows
(passes/list_loops.py):

    for tok, q in zip(drafted, q_probs):      for k in range(_deploy_rt.seq_len(drafted, q_probs)):
        ...                          ->           tok = _deploy_rt.seq_item(drafted, k)
                                                  q = _deploy_rt.seq_item(q_probs, k)

Eagerly, and for Python lists while exporting, these are ``min(len(...))`` and ``seq[k]``: the loop
stays a Python loop over the same items. A list an earlier converted loop filled (a StackedList:
its length may be data-dependent) gives a symbolic length, so the loop becomes a graph loop, and
each item is a row of the list's values stacked.
"""

from __future__ import annotations

import torch

from deploy.rewriters.casts import len_, tensor
from deploy.rewriters.subscripts import getitem
from deploy.rewriters.values import StackedList, is_row_list, is_sym_int, is_tracing


def seq_len(*seqs: object) -> object:
    """The number of items ``zip(*seqs)`` gives (a symbolic size for a data-dependent list)."""
    lengths = [len_(s) for s in seqs]
    shortest = lengths[0]
    for length in lengths[1:]:
        if is_sym_int(shortest) or is_sym_int(length):
            shortest = torch.sym_min(shortest, length)
        else:
            shortest = min(shortest, length)
    return shortest


def seq_of(value: object, listed: bool = False) -> object:
    """What a loop over ``value`` visits, indexable: tensors (their rows, over a dynamic size),
    lists and other sequences as they are, any other iterable (a dict's keys, a generator) listed.
    ``listed``: the loop was over ``value.tolist()``: Python numbers eagerly, the tensor's entries
    while exporting (a list of a data-dependent length has no other form)."""
    if listed:
        return value if is_tracing() and isinstance(value, torch.Tensor) else value.tolist()
    if is_row_list(value):  # a list a graph loop carries (row_lists.RowList)
        return value
    if isinstance(value, (torch.Tensor, StackedList, list, tuple, str, range, torch.nn.ModuleList)):
        return value
    if isinstance(value, (torch.nn.Sequential, torch.nn.ParameterList)):
        return value
    return list(value)


def seq_item(seq: object, index: object) -> object:
    """``seq[index]``; with a graph loop's counter, a row of the stacked values."""
    if is_row_list(seq):  # a list a graph loop carries: row ``index`` of its buffer
        return seq.at(index)
    if isinstance(seq, StackedList):
        return getitem(seq.stacked_with_prefix(), index)
    if isinstance(seq, torch.Tensor):
        return getitem(seq, index)
    if isinstance(index, torch.Tensor) and isinstance(seq, (list, tuple)):
        # a Python list zipped with a data-dependent one, or a loop over a literal list that may
        # `break` on a tensor: its items stacked (one shape, as for a row), numbers built with
        # torch.full (a constant in a graph op's body is lifted, which torch.onnx cannot decompose)
        if all(isinstance(v, (bool, int, float)) for v in seq):
            return getitem(tensor(list(seq)), index)
        return getitem(torch.stack([v if isinstance(v, torch.Tensor) else tensor(v) for v in seq]), index)
    return seq[index]
