"""A static size-1 input read in the rest of an early return, after a branch on a dynamic size
(coral reef monitoring: ``hotspot = recent - mmm`` with ``recent`` the last 84 days or all of them).
The export needs the size-oblivious retry; the branch's frame must keep ``mmm``'s size 1 static, or
the broadcast is decided as "the branch's size equals mmm's" and the program asserts a size of 1 at
run time (foreign_symbols.py)."""

from __future__ import annotations

import deploy

HOTSPOTS = """
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, sst, mmm):
        if (sst > 40.0).any():
            return torch.zeros(1), torch.zeros(1)
        if sst.shape[0] >= 84:
            recent = sst[-84:]
            coverage = 1.0
        else:
            recent = sst
            coverage = 84 / sst.shape[0]
        hotspot = recent - mmm
        dhw = torch.zeros(())
        for d in range(recent.shape[0]):
            if hotspot[d] >= 1.0:
                dhw = dhw + hotspot[d] / 7.0
        dhw = dhw * coverage
        return dhw.reshape(1), recent.std().reshape(1)


def model():
    return M().eval()


def _x(n, seed, hot=0.0):
    return (28.0 + hot + torch.randn(n, generator=torch.Generator().manual_seed(seed)), torch.tensor([28.0]))


def example_inputs():
    return _x(120, 0, 0.8)


def dynamic_shapes():
    return ({0: torch.export.Dim("days", min=14, max=730)}, None)


def verify_inputs():
    hot = _x(30, 3)
    hot[0][3] = 85.0
    return [_x(120, 0, 0.8), _x(60, 1, 0.5), _x(200, 2), hot]
"""


def test_a_size_one_input_broadcast_in_a_branch_exported_size_obliviously(tmp_path, write_model):
    res = deploy.export(write_model(HOTSPOTS), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 7
    assert any("size-obliviously" in note for note in res.report["export"]["notes"])
