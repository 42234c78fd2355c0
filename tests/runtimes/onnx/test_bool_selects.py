"""``torch.where`` of bool tensors, which onnxruntime cannot run as ONNX Where, reaches ONNX as
logical ops (deploy.runtimes.onnx.bool_selects) and matches eager, at the top level and inside a
cond's branch."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch
from torch.export import Dim

from deploy.runtimes.onnx.emit import build_onnx


class Hysteresis(torch.nn.Module):
    """Down after two failures, up again after a success; in a branch when any backend answered."""

    def forward(self, up, fails, oks):
        down = torch.where(fails >= 2, torch.zeros_like(up), torch.where(oks >= 1, torch.ones_like(up), up))

        def answered(down, oks):
            return torch.where(oks > 0, down, torch.zeros_like(down))

        def silent(down, oks):
            return down.clone()

        return down, torch.cond(oks.sum() > 0, answered, silent, (down, oks))


def test_bool_selects_run_in_onnxruntime_and_match_eager():
    n = Dim("n", min=2, max=16)
    example = (
        torch.tensor([True, False, True]),
        torch.tensor([0.0, 3.0, 1.0]),
        torch.tensor([1.0, 0.0, 0.0]),
    )
    program = torch.export.export(Hysteresis(), example, dynamic_shapes=({0: n}, {0: n}, {0: n}))
    model = build_onnx(program, run_onnxsim=False).model
    assert not any(node.op_type == "Where" for node in model.graph.node)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    g = torch.Generator().manual_seed(0)
    for size in (2, 5, 16):
        up = torch.rand(size, generator=g) > 0.5
        fails = torch.randint(0, 4, (size,), generator=g).float()
        for oks in (torch.randint(0, 3, (size,), generator=g).float(), torch.zeros(size)):
            expected = Hysteresis()(up, fails, oks)
            names = [i.name for i in session.get_inputs()]
            got = session.run(None, dict(zip(names, (up.numpy(), fails.numpy(), oks.numpy()))))
            for want, have in zip(expected, got):
                np.testing.assert_array_equal(have, want.numpy())
