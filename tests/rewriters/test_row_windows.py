"""The last rows of a list a loop only appends to (row_windows.tail_window): read at static positions
before the count, as Python's slice reads them, and left to the general read otherwise."""

import pytest
import torch

from deploy.rewriters.row_lists import RowList, list_item
from deploy.rewriters.row_windows import floors


def _rows(count: int) -> RowList:
    return RowList(torch.arange(10.0).reshape(10, 1), torch.tensor(count))


@pytest.mark.parametrize(
    "window", [slice(-3, None), slice(-4, -1), slice(-2, -1), slice(-3, 0), slice(-5, None), slice(1, None)]
)
def test_tail_windows_read_what_python_reads(window):
    # 6 rows, of which the loop started with 4: -5 reaches past those, read through the count
    python = [[float(i)] for i in range(6)][window]
    with floors(([None] * 4,), ("xs",), frozenset({"xs"})):
        got = list_item(_rows(6), window, "xs").stacked
    assert got.tolist() == python
