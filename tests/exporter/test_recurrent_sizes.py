"""A GRU/LSTM over a sequence whose length a size branch chose (long seasons pooled to weeks first):
after the cond the length is unbacked, and torch cannot trace a scan over such a length
("Eq(u1, 0)"); the recurrence runs as a while_loop over it instead, on both targets."""

from __future__ import annotations

import deploy

POOLED = """
import torch
import torch.nn.functional as F

class PooledWhenLong(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = torch.nn.GRU(3, 5, batch_first=True)
        self.lstm = torch.nn.LSTM(5, 4)

    def forward(self, x):
        if x.shape[1] > 12:
            x = F.avg_pool1d(x.transpose(1, 2), 4, 4).transpose(1, 2)
        out, h = self.gru(x)
        seq, (h2, c2) = self.lstm(out.transpose(0, 1))
        return seq.sum(0), h[0] + c2[0].sum(-1, keepdim=True)

def model():
    torch.manual_seed(0)
    return PooledWhenLong().eval()

def example_inputs():
    return (torch.randn(2, 20, 3),)

def dynamic_shapes():
    return ({1: torch.export.Dim("days", min=4, max=64)},)

def verify_inputs():
    g = torch.Generator().manual_seed(3)
    return [(torch.randn(2, n, 3, generator=g),) for n in (4, 12, 13, 30, 41)]
"""


def test_recurrence_over_a_length_a_size_branch_chose(tmp_path, write_model):
    res = deploy.export(write_model(POOLED), targets=["onnx", "tflite"], out=tmp_path / "out")
    for target in ("onnx", "tflite"):
        parity = res.artifacts[target].parity
        assert parity.ok and len(parity.case_labels) >= 6, (target, parity.case_labels)
    branches = res.report["rewrites"]
    assert any(r["kind"] == "if->cond" for r in branches), branches
