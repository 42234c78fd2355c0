"""Bilinear resizes over run-time sizes: by exactly 0.5 (a 2x2 average pool) and to the run-time
size of another tensor (RESIZE_BILINEAR with a computed size)."""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F
from torch.export import Dim

from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches


class HalfThenBack(torch.nn.Module):
    def forward(self, x):
        half = F.interpolate(x, scale_factor=0.5, mode="bilinear", align_corners=False)
        coarse = F.avg_pool2d(half, 2)
        return half, F.interpolate(coarse, size=x.shape[2:], mode="bilinear", align_corners=False)


def test_halving_and_resizing_to_a_runtime_size_match():
    dynamic = ({2: Dim("h", min=8, max=96), 3: Dim("w", min=8, max=96)},)
    model = to_onnx(HalfThenBack(), (torch.rand(1, 3, 40, 32),), dynamic)
    rng = np.random.default_rng(0)
    for h, w in ((40, 32), (9, 15), (64, 23)):
        assert_matches(model, {model.graph.input[0].name: rng.random((1, 3, h, w), dtype=np.float32)})
