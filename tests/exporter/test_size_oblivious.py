"""An export that fails only on a metadata guard ("is the dim of size n - 1 equal to 1?", asked by
the contiguity check of `.float()` on rows from reading 1 on) is retried size-obliviously and
verified at the minimum size, where the guard would have been false. So is one that fails on a
question about a data-dependent size (`roll` asks whether a length a loop left is 0), and one that
then still fails on a guard torch cannot prove but that holds at every size (`topk(k)`'s ``k <= n``)."""

from __future__ import annotations

import torch
from torch.export import Dim

import deploy
from deploy.exporter.export import export_program

TRACKER = """
import torch

class Tracker(torch.nn.Module):
    def forward(self, p):
        mean, flags = p[0], []
        for t in range(1, p.shape[0]):
            anomaly = (p[t] - mean).abs() > 0.5
            mean = torch.where(anomaly, mean, 0.9 * mean + 0.1 * p[t])
            flags.append(anomaly)
        return torch.stack(flags).float(), mean

def model():
    return Tracker()

def example_inputs():
    return (torch.rand(10, 4),)

def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=32)},)

def verify_inputs():
    return [(torch.rand(2, 4),), (torch.rand(7, 4) * 3,)]
"""


def test_size_one_metadata_guard_is_retried_size_obliviously(tmp_path, write_model):
    res = deploy.export(write_model(TRACKER), targets=["onnx"], out=tmp_path / "out")
    # the guard (`n - 1 != 1`) fails only where that size is 1: the range check keeps it out of the
    # program (exporter/range_guards.py) before the size-oblivious retry would
    notes = res.report["export"]["notes"]
    assert any("size-obliviously" in note or "is not 0 or 1" in note for note in notes)
    parity = res.artifacts["onnx"].parity
    assert parity.ok and any("(min)" in label for label in parity.case_labels)


REVERSAL = """
import torch

class ReverseToPeak(torch.nn.Module):
    def forward(self, x):
        while x.argmax() > 0:  # a length-preserving update torch cannot prove: a data-dependent length
            j = int(x.argmax().item())
            x = torch.cat([x[: j + 1].flip(0), x[j + 1 :]])
        return x - x.roll(-1)

def model():
    return ReverseToPeak()

def example_inputs():
    return (torch.tensor([0.3, 0.1, 0.9, 0.2, 0.5]),)

def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=32)},)

def verify_inputs():
    return [(torch.tensor([0.9, 0.1, 0.4]),), (torch.tensor([0.2, 0.3, 0.1, 0.4, 0.8, 0.6, 0.7]),)]
"""


def test_undecidable_zero_length_question_is_retried_size_obliviously(tmp_path, write_model):
    res = deploy.export(write_model(REVERSAL), targets=["onnx"], out=tmp_path / "out")
    assert any("data-dependent sizes" in note for note in res.report["export"]["notes"])
    parity = res.artifacts["onnx"].parity
    assert parity.ok and any("(min)" in label for label in parity.case_labels)


CAPPED = """
import torch

class CappedGate(torch.nn.Module):
    def forward(self, x):
        w = x.softmax(-1)[:, 0]
        capacity = (2 * x.shape[0]) // 3  # 1 at the minimum size
        if w.max() > 0.25:  # a tensor `if` around the capped one (its body is traced by dynamo)
            count = (w > 0.2).sum()
            if count > capacity:  # over capacity: keep the largest weights only
                keep = w.topk(capacity).indices
                w = torch.zeros_like(w).scatter(0, keep, w[keep])
        return w

def model():
    return CappedGate()

def example_inputs():
    return (torch.randn(8, 3),)

def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=64)},)

def _rows(first_column):
    x = torch.zeros(len(first_column), 3)
    x[:, 0] = torch.tensor(first_column)
    return (x,)

def verify_inputs():
    return [
        _rows([0.0, 0.1]),  # n = 2: capacity 1, both weights over 0.2: one kept
        _rows([0.0, 0.1, 0.2, 0.3, 0.4]),  # capacity 3, count 5
        _rows([0.5, 0.4, -3.0, -3.0, -3.0, -3.0]),  # count 2 <= capacity 4
        _rows([-3.0, -3.0, -3.0]),  # no weight over 0.25
    ]
"""


def test_size_one_guard_and_unprovable_guard_together(tmp_path, write_model):
    # `w[keep]` guards on `(2*n)//3 != 1` (false at n = 2), `topk` on `(2*n)//3 <= n` (true for
    # every n, which torch cannot prove): neither retry alone exports, both together do
    res = deploy.export(write_model(CAPPED), targets=["onnx"], out=tmp_path / "out")
    notes = res.report["export"]["notes"]
    assert any("size-obliviously" in note for note in notes)
    assert any("checked at every size" in note for note in notes)
    parity = res.artifacts["onnx"].parity
    assert parity.ok and any("(min)" in label for label in parity.case_labels)
    branches = res.report["branches"]
    assert len(branches) == 2 and all(not b["not_covered"] for b in branches.values())


class TopThird(torch.nn.Module):
    """The same two guards without any branch."""

    def forward(self, x):
        w = x.softmax(-1)[:, 0]
        keep = w.topk((2 * x.shape[0]) // 3).indices
        return torch.zeros_like(w).scatter(0, keep, w[keep])


def test_top_third_exports_and_matches_eager_at_every_size():
    program, notes = export_program(TopThird(), (torch.randn(8, 3),), ({0: Dim("n", min=2, max=64)},))
    assert any("size-obliviously" in note for note in notes)
    for n in range(2, 65):
        x = torch.randn(n, 3)
        torch.testing.assert_close(program.module()(x), TopThird()(x))


VOLATILITY = """
import torch

class WindowedVolatility(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(4, 1)

    def forward(self, close):
        rets = torch.log(close[1:] / close[:-1])  # asks whether n - 1 is 1 (false at n = 2)
        if rets.shape[0] >= 4:
            vol = self.net(rets.abs().unfold(0, 4, 1)).mean()  # records n - 1 >= 4
        else:
            vol = rets.abs().mean()
        return vol

def model():
    torch.manual_seed(0)
    return WindowedVolatility().eval()

def example_inputs():
    return (torch.linspace(10.0, 12.0, 12),)

def dynamic_shapes():
    return ({0: torch.export.Dim("days", min=2, max=128)},)

def verify_inputs():
    return [(torch.tensor([10.0, 10.5]),), (torch.tensor([10.0, 10.4, 10.2, 10.9]),), (torch.rand(40) + 1.0,)]
"""


def test_size_one_guard_and_a_size_branch_guard_together(tmp_path, write_model):
    """Each retry alone fails on the other guard; both at once export, and verify at every size."""
    res = deploy.export(write_model(VOLATILITY), targets=["onnx"], out=tmp_path / "out")
    notes = res.report["export"]["notes"]
    assert any("size-obliviously" in n and "without the size guards" in n for n in notes)
    parity = res.artifacts["onnx"].parity
    assert parity.ok and any("(min)" in label for label in parity.case_labels)
    assert res.report["branches"] and not any(b["not_covered"] for b in res.report["branches"].values())


POOLED_TWICE = """
import torch
import torch.nn.functional as F

class PooledTwice(torch.nn.Module):
    def forward(self, x):
        if x.shape[2] * x.shape[3] > 24 * 24:  # large images downscaled first
            x = F.avg_pool2d(x, 2, ceil_mode=True)
        return F.max_pool2d(x, 2, ceil_mode=True).mean(dim=(2, 3))

def model():
    return PooledTwice()

def example_inputs():
    return (torch.rand(1, 2, 20, 20),)

def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=8, max=64), 3: torch.export.Dim("W", min=8, max=64)},)

def verify_inputs():
    return [(torch.rand(1, 2, 9, 15),), (torch.rand(1, 2, 33, 40),), (torch.rand(1, 2, 64, 63),)]
"""


def test_a_question_with_one_answer_over_a_picked_sizes_range_is_answered(tmp_path, write_model):
    # ceil_mode pooling of a height a size branch picked (unbacked, in [4, 64]) asks whether
    # `2 * ((h - 1) // 2) >= h`: false at every h the range allows, so answered false
    res = deploy.export(write_model(POOLED_TWICE), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 4


POOLED_THEN_WINDOWS = """
import torch
import torch.nn.functional as F

class PooledThenWindows(torch.nn.Module):
    def forward(self, ir):
        _, _, h, w = ir.shape
        x = ir
        if h * w > 24 * 24:  # large images downscaled first
            x = F.avg_pool2d(x, 2, ceil_mode=True)
        gain = F.max_pool2d(x, 2, ceil_mode=True).mean(dim=(1, 2, 3))
        out = []
        for b in range(ir.shape[0]):
            eye = ir[b, 0, h // 2 - 2 : h // 2 + 2, w // 2 - 2 : w // 2 + 2].mean() * gain[b]
            if eye > 0.3:
                eye = eye * 2.0
            out.append(eye)
        return torch.stack(out)

def model():
    return PooledThenWindows()

def example_inputs():
    return (torch.rand(3, 1, 20, 20),)

def dynamic_shapes():
    return ({0: torch.export.Dim("B", min=2, max=8), 2: torch.export.Dim("H", min=8, max=64),
             3: torch.export.Dim("W", min=8, max=64)},)

def verify_inputs():
    return [(torch.rand(2, 1, 9, 15),), (torch.rand(4, 1, 33, 40) * 0.5,), (torch.rand(8, 1, 64, 63),)]
"""


def test_a_picked_sizes_question_is_answered_keeping_the_input_sizes_as_they_are(tmp_path, write_model):
    # the pooling's question is about sizes the size branch picked; answering backed size questions
    # size-obliviously too would give the loop body's window slice sizes of its own, which a scan
    # cannot carry ("pending unbacked symbols")
    res = deploy.export(write_model(POOLED_THEN_WINDOWS), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 4
