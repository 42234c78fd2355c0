"""deploy's ONNX translations for ops torch.onnx lacks: median over a whole tensor and along a dim
(torch's lower middle value, and its index), checked against eager in onnxruntime."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch

from deploy.runtimes.onnx.emit import build_onnx


class Medians(torch.nn.Module):
    def forward(self, x):
        along = x.median(-1)
        first = x.median(0, keepdim=True)
        return x.median(), along.values, along.indices, first.values


def test_median_translations_match_eager():
    x = torch.randn(5, 6)
    program = torch.export.export(Medians(), (x,), dynamic_shapes=({0: torch.export.Dim("n", min=2, max=9)},))
    model = build_onnx(program, run_onnxsim=False).model
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    for rows in (5, 2, 8):
        x = torch.randn(rows, 6)  # distinct values: the median's index is unique
        got = session.run(None, {session.get_inputs()[0].name: x.numpy()})
        for a, b in zip(got, Medians()(x)):
            np.testing.assert_allclose(a, b.numpy(), rtol=1e-6)
