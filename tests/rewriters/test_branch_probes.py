"""Conds nested in a traced loop body have their branches probed once, nested `if`s as selects
(branch_probes.py): the exported graph holds one cond per converted `if`, not a dead cond for every
probe at every depth (which took time exponential in the depth)."""

from __future__ import annotations

import torch
from torch import nn

from deploy.rewriters import rewrite_module


class SkipBands(nn.Module):
    """Each `continue` nests the rest of the body in one more cond (the `if` and the rest under
    `if not continued`): eight conds, four deep."""

    def forward(self, x):
        acc = x[0] * 0
        for t in range(x.shape[0]):
            if x[t] > 0.9:
                continue
            if x[t] > 0.8:
                continue
            if x[t] > 0.7:
                continue
            if x[t] > 0.6:
                continue
            acc = acc + x[t]
        return acc


def test_nested_conds_in_a_loop_body_are_probed_without_leaving_conds():
    model = SkipBands()
    example = (torch.rand(8),)
    dims = ({0: torch.export.Dim("n", min=2, max=64)},)
    rewritten = rewrite_module(model, example, dims).module
    with torch.no_grad():
        program = torch.export.export(rewritten, example, dynamic_shapes=dims, strict=False)
    conds = [
        n
        for gm in program.graph_module.modules()
        for n in gm.graph.nodes
        if n.op == "call_function" and n.target is torch.ops.higher_order.cond
    ]
    assert len(conds) == 8  # 18 when every probe left its nested conds behind
    x = torch.tensor([0.95, 0.1, 0.5, 0.85, 0.2, 0.65, 0.75])
    assert torch.allclose(program.module()(x), model(x))
