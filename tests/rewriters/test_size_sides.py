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


GUARDED_TREND = """
import torch

class GuardedTrend(torch.nn.Module):
    def forward(self, x):
        if x[-1] < -2.0:
            return torch.zeros(1)
        trend = (x[-1] - x[-4]) / 3.0 if x.shape[0] >= 4 else torch.zeros(())
        return (trend + x.mean()).reshape(1)

def model():
    return GuardedTrend()

def example_inputs():
    return (torch.linspace(0.0, 1.0, 5),)

def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=64)},)

def verify_inputs():
    return [
        (torch.tensor([0.5, -3.0]),),
        (torch.tensor([0.5, 1.0]),),
        (torch.tensor([0.5, 1.0, 2.0]),),
        (torch.linspace(-1.0, 2.0, 40),),
    ]
"""


def test_size_ternary_inside_the_rest_of_an_early_return(tmp_path, write_model):
    # after `if x[-1] < -2: return`, the ternary sits in a cond branch dynamo traces, where `x[-4]`
    # records the guard n >= 4: the exporter's retry trusts every branch traced from the top level
    res = deploy.export(write_model(GUARDED_TREND), targets=["onnx"], out=tmp_path / "out")
    assert {"if->cond", "ifexp->cond"} <= {r["kind"] for r in res.report["rewrites"]}
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 6
