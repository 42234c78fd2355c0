"""Adaptive average pools over dynamic sizes translate to ONNX with run-time windows."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch
import torch.nn.functional as F
from torch.export import Dim

from deploy.runtimes.onnx.decompositions import size_exact
from deploy.runtimes.onnx.emit import to_onnx_proto


class Pools(torch.nn.Module):
    def forward(self, x):
        return F.adaptive_avg_pool2d(x, (3, 5)), F.adaptive_avg_pool1d(x.flatten(2), 4)


def _session(program) -> ort.InferenceSession:
    return ort.InferenceSession(
        to_onnx_proto(program).SerializeToString(), providers=["CPUExecutionProvider"]
    )


def test_adaptive_pools_match_eager_at_sizes_other_than_the_example():
    example = (torch.randn(1, 2, 12, 10),)
    dynamic = ({2: Dim("h", min=4, max=40), 3: Dim("w", min=5, max=40)},)
    program = torch.export.export(Pools(), example, dynamic_shapes=dynamic)
    session = _session(program)
    for h, w in ((12, 10), (4, 5), (7, 13), (40, 33)):
        x = torch.randn(1, 2, h, w)
        expected = [t.numpy() for t in Pools()(x)]
        got = session.run(None, {session.get_inputs()[0].name: x.numpy()})
        for g, e in zip(got, expected, strict=True):
            assert g.shape == e.shape
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def test_programs_with_static_pools_are_left_alone():
    program = torch.export.export(Pools(), (torch.randn(1, 2, 12, 10),))
    assert size_exact(program) is program
