"""A tuple of numbers appended to a list (``trick.append((p, suit, rank))``, passes/row_literals.py)
whose entries mix integers and floats. Where the list stays a Python list (a loop torch runs as
Python, unrolled) each entry keeps its own type, as eagerly: ``trick[best][0]`` is still an int
position. Where a graph loop stacks the rows it appends (a buffer, a scan's outputs), the row is one
1-D tensor of the floating dtype (``MixedRow.row``), as ``torch.tensor`` would build it.
"""

from __future__ import annotations

import torch


class MixedRow(tuple):
    """The appended tuple itself, and ``row``: its entries as one float row."""

    row: torch.Tensor

    def __new__(cls, values: tuple, row: torch.Tensor) -> MixedRow:
        made = super().__new__(cls, values)
        made.row = row
        return made


def rows_appended(body_fn):
    """``body_fn`` (returning its values and the values it appends) with each appended MixedRow made
    its row: a graph loop's bodies append tensors."""
    if getattr(body_fn, "_deploy_rows_appended", False):
        return body_fn

    def body(*args):
        values, appended = body_fn(*args)
        return values, made_rows(appended)

    body._deploy_rows_appended = True
    return body


def made_rows(values: tuple | list) -> tuple:
    return tuple(v.row if isinstance(v, MixedRow) else v for v in values)
