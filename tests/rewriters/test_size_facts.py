"""Sizes a size branch gives back that torch cannot prove equal to the input's: scores computed
at half rate for long inputs and repeated back to the input's length, behind an early return whose
two paths are selected at the top level (the selected outputs need one shape); a rolling mean
pooled only for long rides, in the rest of an early return that is a cond dynamo traces."""

from __future__ import annotations

import deploy

POOLED = """
import torch
import torch.nn.functional as F

class PooledScores(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 3)

    def forward(self, x):
        t = x.shape[1]
        if x.abs().mean() < 0.05:
            return torch.zeros(x.shape[0], t, 3)
        h = x
        if t > 16:
            h = F.avg_pool1d(h.transpose(1, 2), 2, ceil_mode=True).transpose(1, 2)
        scores = self.proj(h)
        if t > 16:
            scores = scores.repeat_interleave(2, dim=1)[:, :t]
        return scores

def model():
    torch.manual_seed(0)
    return PooledScores().eval()

def _signal(t, scale, seed):
    return (scale * torch.randn(2, t, 4, generator=torch.Generator().manual_seed(seed)),)

def example_inputs():
    return _signal(8, 1.0, 0)

def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=4, max=128)},)

def verify_inputs():
    return [_signal(33, 1.0, 1), _signal(6, 0.001, 2), _signal(20, 1.0, 3), _signal(40, 0.001, 4)]
"""


def test_scores_repeated_back_after_an_early_return_export_and_match(tmp_path, write_model):
    res = deploy.export(write_model(POOLED), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 7
    kinds = {(r["kind"], r["line"]) for r in res.report["rewrites"]}
    early = POOLED.splitlines().index("        if x.abs().mean() < 0.05:") + 1
    assert ("if->where", early) in kinds  # the early return: both paths selected at the top level


RIDE = """
import torch
import torch.nn.functional as F

class Ride(torch.nn.Module):
    def forward(self, power):
        n = power.shape[0]
        if (power > 5.0).float().mean() < 0.2:
            return torch.zeros(2)
        half = n // 2
        drift = power[:half].mean() / power[half:].mean()
        if n >= 30:
            rolling = F.avg_pool1d(power.view(1, 1, -1), 30, stride=1).view(-1)
        else:
            rolling = power
        return torch.stack([rolling.pow(4).mean().pow(0.25), drift])

def model():
    return Ride().eval()

def _ride(n, seed, stopped=0.1):
    g = torch.Generator().manual_seed(seed)
    p = 200 + 30 * torch.randn(n, generator=g)
    return (torch.where(torch.rand(n, generator=g) < stopped, torch.zeros(n), p),)

def example_inputs():
    return _ride(100, 0)

def dynamic_shapes():
    return ({0: torch.export.Dim("seconds", min=2, max=600)},)

def verify_inputs():
    return [_ride(2, 1), _ride(20, 2), _ride(45, 3), _ride(50, 4, stopped=0.95)]
"""


def test_a_size_a_branch_picked_keeps_its_bounds_where_guards_are_dropped(tmp_path, write_model):
    # the rest of the early return records guards torch cannot prove (`n - n // 2 >= 2`), so the
    # last retry drops every branch's guards; the size the `n >= 30` branch picks must still be
    # known to be a size (`u >= 0`), or `rolling.mean()` cannot be traced
    res = deploy.export(write_model(RIDE), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 7
    kinds = {(r["kind"], r["line"]) for r in res.report["rewrites"]}
    pooled = RIDE.splitlines().index("        if n >= 30:") + 1
    assert ("if->cond", pooled) in kinds
