"""Models whose dynamic dims cannot be prepared at the default size of 1, and outputs with no rows.

A dynamic dim is written with 1 in a .tflite's default shape; a 3x3 convolution without padding
cannot prepare at 1x1. The session allocates such a model at the sizes ``run`` is given, and
check-ops tries typical sizes before calling an op unpreparable. A filter that keeps no rows gives
a (0, k) output, which the interpreter refuses to hand out; the session returns it empty."""

from __future__ import annotations

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from torch.export import Dim

from deploy.exporter.checks.tflite_target import interpreter_error, lower_to_bytes
from tests.runtimes.tflite.export_helpers import to_onnx
from tests.runtimes.tflite.helpers import assert_matches


class Sharpness(torch.nn.Module):
    def __init__(self):
        super().__init__()
        lap = torch.tensor([[0.0, 1.0, 0.0], [1.0, -4.0, 1.0], [0.0, 1.0, 0.0]])
        self.register_buffer("lap", lap.view(1, 1, 3, 3))

    def forward(self, img):
        return F.conv2d(img, self.lap).square().mean(dim=(2, 3))


def _conv_model() -> onnx.ModelProto:
    dynamic = ({2: Dim("h", min=8, max=64), 3: Dim("w", min=8, max=64)},)
    return to_onnx(Sharpness(), (torch.rand(1, 1, 20, 24),), dynamic)


def test_valid_convolution_over_dynamic_sizes_runs_at_the_given_sizes():
    model = _conv_model()
    for h, w in ((20, 24), (8, 9), (40, 17)):
        assert_matches(model, {model.graph.input[0].name: np.random.rand(1, 1, h, w).astype(np.float32)})


def test_check_ops_tries_typical_sizes_before_refusing():
    assert interpreter_error(lower_to_bytes(_conv_model())) is None


class KeepAbove(torch.nn.Module):
    def forward(self, x):
        return x[x[:, 0] > 0.5]


def test_a_filter_that_keeps_no_rows_returns_an_empty_output():
    model = to_onnx(KeepAbove(), (torch.rand(6, 3),), ({0: Dim("n", min=2, max=64)},))
    name = model.graph.input[0].name
    assert_matches(model, {name: np.random.rand(7, 3).astype(np.float32)})
    empty = np.full((5, 3), 0.1, dtype=np.float32)
    assert_matches(model, {name: empty})
