"""Ops swapped while exporting (exporter/portable_ops.py): attention layers take their composite
path, not the fused fast path torch.onnx cannot translate (taken, for one, when an early return
puts the layers in code computed at the top level)."""

from __future__ import annotations

import torch

import deploy

ENCODER = """
import torch
from torch import nn

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList(
            [nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0, batch_first=True) for _ in range(2)]
        )

    def forward(self, x, mask):
        if mask.all():
            return x[:, 0] * 0.0
        for blk in self.blocks:
            x = blk(x, src_key_padding_mask=mask)
        return x[:, 0]

def model():
    torch.manual_seed(0)
    return Encoder().eval()

def example_inputs():
    mask = torch.zeros(2, 6, dtype=torch.bool)
    mask[1, 4:] = True
    return (torch.randn(2, 6, 16), mask)
"""


def test_transformer_encoder_layers_export_to_onnx(tmp_path, write_model):
    res = deploy.export(write_model(ENCODER), targets=["onnx"], out=tmp_path / "out")
    assert res.artifacts["onnx"].parity.ok
    assert torch.backends.mha.get_fastpath_enabled()  # restored after the export
