"""An export that fails only on a metadata guard ("is the dim of size n - 1 equal to 1?", asked by
the contiguity check of `.float()` on rows from reading 1 on) is retried size-obliviously and
verified at the minimum size, where the guard would have been false."""

from __future__ import annotations

import deploy

TRACKER = """
import torch

class Tracker(torch.nn.Module):
    def forward(self, p):
        mean, flags = p[0], []
        for t in range(1, p.shape[0]):
            anomaly = (p[t] - mean).abs() > 0.5
            mean = torch.where(anomaly, mean, 0.9 * mean + 0.1 * p[t])
            flags.append(anomaly)
        return torch.stack(flags).float(), mean

def model():
    return Tracker()

def example_inputs():
    return (torch.rand(10, 4),)

def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=32)},)

def verify_inputs():
    return [(torch.rand(2, 4),), (torch.rand(7, 4) * 3,)]
"""


def test_size_one_metadata_guard_is_retried_size_obliviously(tmp_path, write_model):
    res = deploy.export(write_model(TRACKER), targets=["onnx"], out=tmp_path / "out")
    assert any("size-obliviously" in note for note in res.report["export"]["notes"])
    parity = res.artifacts["onnx"].parity
    assert parity.ok and any("(min)" in label for label in parity.case_labels)
