"""Loops traced in the exporter's size-oblivious retry (exporter/export._size_oblivious)."""

from __future__ import annotations

import torch
from torch import nn
from torch.export import Dim

from deploy.rewriters import rewrite_module


class FirstNegative(nn.Module):
    def forward(self, x):
        for t in range(2, x.shape[0]):
            if x[t] < 0:
                found = (x[t] * 2).view(1)
                return found
        return torch.zeros(1)


def test_a_size_one_loop_variable_stays_static_in_the_loop():
    # size-obliviously torch gives the loop's (1,)-shaped inputs a size symbol, which the body's
    # `.view(1)` on one path of its cond no longer matched
    example, dynamic = (torch.tensor([1.0, 2.0, 3.0, -1.0, 2.0, 5.0]),), ({0: Dim("n", min=3, max=64)},)
    module = rewrite_module(FirstNegative(), example, dynamic).module
    with torch.no_grad(), torch.fx.experimental._config.patch(backed_size_oblivious=True):
        program = torch.export.export(module, example, dynamic_shapes=dynamic, strict=False)
    for x in (torch.tensor([1.0, 2.0, 3.0, -1.0, 2.0, 5.0]), torch.tensor([-1.0, 1.0, 2.0, 3.0])):
        assert torch.equal(program.module()(x), FirstNegative()(x))
