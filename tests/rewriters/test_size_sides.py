"""Branches on a dynamic size whose sides are valid only where their test holds, through the whole
export (the exporter trusts a size branch's own guards and verifies at the range's ends)."""

from __future__ import annotations

import deploy

TREND = """
import torch

class Trend(torch.nn.Module):
    def forward(self, x):
        trend = (x[-1] - x[-4]) / 3.0 if x.shape[0] >= 4 else (x[-1] - x[0]) / (x.shape[0] - 1)
        return trend * x

def model():
    return Trend()

def example_inputs():
    return (torch.randn(24),)

def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=64)},)

def verify_inputs():
    return [(torch.randn(2),), (torch.randn(3),), (torch.randn(4),), (torch.randn(40),)]
"""


def test_size_ternary_whose_side_indexes_only_where_long_enough(tmp_path, write_model):
    # `x[-4]` is probed (no guard) before the ternary becomes a cond: n >= 4 is not assumed
    res = deploy.export(write_model(TREND), targets=["onnx"], out=tmp_path / "out")
    assert [r["kind"] for r in res.report["rewrites"]] == ["ifexp->cond"]
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 5
