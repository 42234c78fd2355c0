"""An export that fails only on a metadata guard ("is the dim of size n - 1 equal to 1?", asked by
the contiguity check of `.float()` on rows from reading 1 on) is retried size-obliviously and
verified at the minimum size, where the guard would have been false. So is one that fails on a
question about a data-dependent size (`roll` asks whether a length a loop left is 0)."""

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


REVERSAL = """
import torch

class ReverseToPeak(torch.nn.Module):
    def forward(self, x):
        while x.argmax() > 0:  # a length-preserving update torch cannot prove: a data-dependent length
            j = int(x.argmax().item())
            x = torch.cat([x[: j + 1].flip(0), x[j + 1 :]])
        return x - x.roll(-1)

def model():
    return ReverseToPeak()

def example_inputs():
    return (torch.tensor([0.3, 0.1, 0.9, 0.2, 0.5]),)

def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=32)},)

def verify_inputs():
    return [(torch.tensor([0.9, 0.1, 0.4]),), (torch.tensor([0.2, 0.3, 0.1, 0.4, 0.8, 0.6, 0.7]),)]
"""


def test_undecidable_zero_length_question_is_retried_size_obliviously(tmp_path, write_model):
    res = deploy.export(write_model(REVERSAL), targets=["onnx"], out=tmp_path / "out")
    assert any("data-dependent sizes" in note for note in res.report["export"]["notes"])
    parity = res.artifacts["onnx"].parity
    assert parity.ok and any("(min)" in label for label in parity.case_labels)
