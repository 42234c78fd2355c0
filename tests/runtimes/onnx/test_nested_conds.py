"""A helper with an if/elif chain on tensors (a cond nested in a cond branch) in a program that also
has a while_loop: torch 2.13's exporter gives the local-function domain two versions and its
inliner refuses; emit fixes the versions and translates."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch

from deploy.exporter.export import export_program
from deploy.rewriters import rewrite_module
from deploy.runtimes.onnx.emit import to_onnx_proto


def soft_clip(x: torch.Tensor, limit: float) -> torch.Tensor:
    peak = x.abs().max()
    if peak <= limit:
        return x
    elif peak <= 4 * limit:
        return limit * torch.tanh(x / limit)
    else:
        return x * (limit / peak)


class ClipThenShrink(torch.nn.Module):
    def forward(self, x):
        h = soft_clip(x, 2.0) * 3
        while h.norm() > 10.0:
            h = h * 0.5
        return soft_clip(h, 1.0)


def test_nested_conds_next_to_a_while_loop_translate_and_match():
    model = ClipThenShrink()
    rewritten = rewrite_module(model).module
    ep, _ = export_program(rewritten, (torch.randn(2, 5),))
    session = ort.InferenceSession(to_onnx_proto(ep).SerializeToString())
    for scale in (0.1, 1.0, 5.0, 100.0):
        x = torch.randn(2, 5) * scale
        (got,) = session.run(None, {session.get_inputs()[0].name: x.numpy()})
        np.testing.assert_allclose(got, model(x).numpy(), rtol=1e-5, atol=1e-6)
