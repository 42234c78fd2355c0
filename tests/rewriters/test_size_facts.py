"""Sizes a size branch gives back that torch cannot prove equal to the input's: scores computed
at half rate for long inputs and repeated back to the input's length, behind an early return whose
two paths are selected at the top level (the selected outputs need one shape)."""

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
