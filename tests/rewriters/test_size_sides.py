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


POOLED_KEY_FRAMES = """
import torch
import torch.nn.functional as F

class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(1, 4, 3, stride=2, padding=1)

    def forward(self, frame):
        x = frame.unsqueeze(0)
        if x.shape[-2] > 48:  # large frames: downscaled before the conv
            x = F.avg_pool2d(x, 2)
        return F.adaptive_avg_pool2d(torch.relu(self.conv(x)), 2).flatten()

class KeyFrames(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

    def forward(self, frames):
        codes = [frames.new_zeros(16)]
        for t in range(frames.shape[0]):
            if frames[t].mean() < 0.0:
                continue
            codes.append(self.encoder(frames[t]))
        return torch.stack(codes).mean(0)

def model():
    torch.manual_seed(0)
    return KeyFrames().eval()

def example_inputs():
    return (torch.rand(4, 1, 32, 40),)

def dynamic_shapes():
    return ({0: torch.export.Dim("T", min=2, max=16), 2: torch.export.Dim("H", min=16, max=128),
             3: torch.export.Dim("W", min=16, max=128)},)

def verify_inputs():
    g = torch.Generator().manual_seed(1)
    return [
        (torch.rand(3, 1, 60, 20, generator=g),),
        (torch.rand(2, 1, 16, 16, generator=g) - 0.7,),
        (torch.rand(5, 1, 128, 100, generator=g) - 0.5,),
    ]
"""


def test_a_size_branch_pooling_in_a_helper_a_loop_body_calls(tmp_path, write_model):
    # the branch's outputs differ in size with strides `Max(1, H//2)` torch.cond refuses: the loop is
    # traced again with such conds passing those outputs flattened (set46 doorbell_clip_keyframe_encoder)
    res = deploy.export(write_model(POOLED_KEY_FRAMES), targets=["onnx", "tflite"], out=tmp_path / "out")
    assert {"if->cond", "for->scan"} <= {r["kind"] for r in res.report["rewrites"]}
    for target in ("onnx", "tflite"):
        parity = res.artifacts[target].parity
        assert parity.ok and parity.cases >= 4, target


WINDOW_BY_LENGTH = """
import torch
import torch.nn.functional as F

class WindowByLength(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.long_window, self.short_window = 8, 3

    def smooth(self, x):
        win = self.long_window if x.shape[0] >= 32 else self.short_window
        return F.avg_pool1d(x[None, None], win, stride=1)[0, 0]

    def forward(self, x):
        smoothed = self.smooth(x)
        return smoothed.max().reshape(1), smoothed.mean().reshape(1)

def model():
    return WindowByLength()

def example_inputs():
    return (torch.randn(40),)

def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=4, max=64)},)

def verify_inputs():
    return [(torch.randn(4),), (torch.randn(31),), (torch.randn(32),), (torch.randn(64),)]
"""


def test_a_pooling_window_picked_by_a_length(tmp_path, write_model):
    # the window is a module setting picked by a size test: the rest of `smooth` moves into both
    # sides, each pooling with its own constant window (not a size torch cannot decide)
    res = deploy.export(write_model(WINDOW_BY_LENGTH), targets=["onnx", "tflite"], out=tmp_path / "out")
    for target in ("onnx", "tflite"):
        parity = res.artifacts[target].parity
        assert parity.ok and parity.cases >= 5
