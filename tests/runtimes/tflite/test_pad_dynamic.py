"""Pad mode 'edge' (F.pad replicate) with pads computed at run time, or wider than 1: a GATHER of
clamped positions along each padded axis."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch.export import Dim

from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches


class PadToMultiple(torch.nn.Module):
    def forward(self, x):
        pad = (4 - x.shape[-1] % 4) % 4
        return F.pad(x, (0, pad), mode="replicate"), F.pad(x, (3, 2), mode="replicate")


def test_replicate_pad_over_run_time_sizes_matches():
    example = (torch.randn(2, 3, 16),)
    model = to_onnx(PadToMultiple(), example, ({2: Dim("length", min=2, max=64)},))
    rng = np.random.default_rng(0)
    for length in (16, 13, 2, 63):
        x = rng.standard_normal((2, 3, length)).astype(np.float32)
        assert_matches(model, {model.graph.input[0].name: x})
