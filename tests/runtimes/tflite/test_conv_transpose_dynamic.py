"""ConvTranspose over run-time spatial sizes: TRANSPOSE_CONV with a computed output shape."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn
from torch.export import Dim

from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches


class Decoder1d(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv1d(1, 8, 7, stride=2, padding=3)
        self.dec = nn.Sequential(
            nn.ConvTranspose1d(8, 4, 4, stride=2, padding=1),
            nn.ReLU(),
            nn.ConvTranspose1d(4, 1, 4, stride=2, padding=1),
        )

    def forward(self, x):
        return self.dec(self.enc(x))


def test_1d_decoder_over_a_dynamic_length():
    torch.manual_seed(0)
    model = to_onnx(Decoder1d(), (torch.randn(1, 1, 64),), ({2: Dim("t", min=8, max=512)},))
    for length in (64, 8, 200):
        assert_matches(model, {model.graph.input[0].name: np.random.randn(1, 1, length).astype(np.float32)})


@pytest.mark.parametrize("padding", [0, 1])
def test_2d_upsampling_over_dynamic_height_and_width(padding):
    torch.manual_seed(1)
    layer = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=padding)
    dynamic = ({2: Dim("h", min=2, max=20), 3: Dim("w", min=2, max=20)},)
    model = to_onnx(layer, (torch.randn(1, 2, 5, 7),), dynamic)
    for h, w in ((5, 7), (2, 3), (11, 4)):
        assert_matches(model, {model.graph.input[0].name: np.random.randn(1, 2, h, w).astype(np.float32)})
