"""``int(t)`` of a float tensor, and of a one-element row, while exporting (casts.int_)."""

from __future__ import annotations

import torch

from deploy.rewriters.casts import int_


class Counts(torch.nn.Module):
    def forward(self, x):
        share = x.sum() / (x - x).sum()  # 0/0 or x/0: a branch computed but not taken divided by zero
        return int_(x.sum() * 2), int_(share), int_(-share)


def test_int_of_a_nan_or_infinite_tensor_is_zero_while_exporting():
    # eagerly int() raises on NaN and infinities, so no path eager takes has one; cast, they were a
    # huge negative count (a buffer of negative size in onnxruntime)
    program = torch.export.export(Counts(), (torch.tensor([1.5, 2.0]),), strict=False)
    whole, infinite, negative = program.module()(torch.tensor([1.5, 2.0]))  # 3.5 / 0
    assert int(whole) == 7 and whole.dtype == torch.int64
    assert int(infinite) == 0 and int(negative) == 0
    assert [int(v) for v in program.module()(torch.zeros(2))] == [0, 0, 0]  # 0 / 0: NaN


class FirstIndex(torch.nn.Module):
    def forward(self, x):
        return int_(torch.argmax(x, keepdim=True))  # a one-element row, as `torch.nonzero(hits)[0]`


def test_int_of_a_one_element_row_is_a_number_while_exporting():
    # int() of a tensor with one element is a number; kept a tensor, it kept the row's shape (1,),
    # and `torch.tensor(start)` after it was a row, not a scalar
    program = torch.export.export(FirstIndex(), (torch.tensor([0.5, 3.0, 1.0]),), strict=False)
    first = program.module()(torch.tensor([0.5, 3.0, 1.0]))
    assert first.shape == () and int(first) == 1
