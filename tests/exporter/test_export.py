"""torch.export step: dynamic shapes honoured, the 0/1-specialisation trap, errors at the user's line."""

from __future__ import annotations

import pytest
import torch
from torch.export import Dim

from deploy.errors import NotDeployableError
from deploy.exporter.export import export_program
from deploy.exporter.shapes import dynamic_dims, grow_small_dims


class Pool(torch.nn.Module):
    def forward(self, x):
        return x.sum(dim=1) * 2


def test_dynamic_dim_with_example_size_one_stays_dynamic():
    example = (torch.randn(1, 3),)
    ep, notes = export_program(Pool(), example, ({0: Dim("batch", max=64)},))
    dims = dynamic_dims(ep)
    assert [(d.input_index, d.dim) for d in dims] == [(0, 0)]
    assert dims[0].high == 64
    assert any("traced with size 2" in n for n in notes)
    out = ep.module()(torch.randn(7, 3))  # a static export would refuse size 7
    assert out.shape == (7,)


def test_dict_dynamic_shapes_by_argument_name():
    spec = {"x": {0: Dim("batch")}}
    grown, _ = grow_small_dims(Pool(), (torch.randn(1, 3),), spec)
    assert grown[0].shape == (2, 3)


def test_static_when_no_dynamic_shapes():
    ep, notes = export_program(Pool(), (torch.randn(1, 3),))
    assert dynamic_dims(ep) == [] and notes == []


def test_tensor_if_fails_at_the_users_line():
    class Branch(torch.nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x
            return -x

    with pytest.raises(NotDeployableError) as info:
        export_program(Branch(), (torch.randn(3),))
    err = info.value
    assert err.file == __file__
    assert "if x.sum() > 0" in err.detail
    assert err.exit_code == 1


def test_loop_over_dynamic_size_names_the_loop():
    class Loop(torch.nn.Module):
        def forward(self, x):
            acc = x[:, 0]
            for t in range(1, x.shape[1]):
                acc = acc + x[:, t]
            return acc

    with pytest.raises(NotDeployableError, match="specialised") as info:
        export_program(Loop(), (torch.randn(2, 5),), ({1: Dim("seq", min=2, max=32)},))
    assert info.value.file == __file__
    assert "for t in range" in info.value.detail


class PoolLongInputs(torch.nn.Module):
    """The pooled branch records `length >= 3` (true wherever it runs: lengths above 16), which
    torch.export would otherwise apply to the whole range 2..64."""

    def forward(self, x):
        if x.shape[1] > 16:
            x = torch.nn.functional.avg_pool1d(x.transpose(1, 2), 2, ceil_mode=True).transpose(1, 2)
        return x.cumsum(dim=1)


def test_size_branch_guards_are_dropped_on_retry_and_said_so():
    from deploy.rewriters import rewrite_module

    example, dynamic = (torch.randn(2, 10, 3),), ({1: Dim("length", min=2, max=64)},)
    module = rewrite_module(PoolLongInputs(), example, dynamic).module
    ep, notes = export_program(module, example, dynamic)
    assert any("without the size guards" in n for n in notes)
    for length in (2, 3, 16, 17, 40, 64):  # both sides of the test, odd and even
        x = torch.randn(2, length, 3)
        torch.testing.assert_close(ep.module()(x), PoolLongInputs()(x))


def test_exports_that_need_no_retry_carry_no_note():
    from deploy.rewriters import rewrite_module

    class Trim(torch.nn.Module):
        def forward(self, x):
            if x.shape[1] > 12:
                x = x[:, -12:] * 2
            return x + 1

    example, dynamic = (torch.randn(2, 10, 3),), ({1: Dim("length", min=2, max=64)},)
    ep, notes = export_program(rewrite_module(Trim(), example, dynamic).module, example, dynamic)
    assert notes == []
    assert ep.module()(torch.randn(2, 30, 3)).shape == (2, 12, 3)


def test_cdist_on_a_dynamic_count_exports_without_specialising():
    """torch.cdist picks its algorithm by size (> 25 rows: a matrix product): exported by its
    definition, it keeps the dim dynamic and translates to ONNX."""
    import numpy as np
    import onnxruntime as ort

    from deploy.runtimes.onnx.emit import to_onnx_proto

    class Nearest(torch.nn.Module):
        def forward(self, points, centres):
            return torch.cdist(points, centres).min(dim=1).values

    centres = torch.randn(4, 3)
    ep, _ = export_program(Nearest(), (torch.randn(50, 3), centres), ({0: Dim("n", min=1, max=512)}, None))
    session = ort.InferenceSession(to_onnx_proto(ep).SerializeToString())
    for n in (1, 25, 26, 300):
        points = torch.randn(n, 3)
        (got,) = session.run(None, {"points": points.numpy(), "centres": centres.numpy()})
        np.testing.assert_allclose(got, Nearest()(points, centres).numpy(), rtol=1e-4, atol=1e-5)


class SharedDimInputs(torch.nn.Module):
    """Two inputs share one Dim; a cond's output sized by one meets the other inside a loop."""

    def forward(self, seen, popularity, scores, steps):
        if seen.all():
            s = popularity
        else:
            s = torch.where(seen > 0, torch.full_like(scores, -1.0), scores)
        best = torch.zeros_like(scores)
        for _ in range(int(steps.item())):
            best = torch.maximum(best, s * scores)
            s = s * 0.5
        return best


def test_inputs_sharing_a_dim_are_one_size_while_tracing():
    """Non-strict torch.export gives each input dim its own symbol until the end; torch.cond keeps
    the size only when both branches give the same symbol."""
    from deploy.rewriters import rewrite_module

    n = Dim("n", min=2, max=256)
    example = (torch.zeros(20, dtype=torch.uint8), torch.rand(20), torch.rand(20), torch.tensor(3))
    dynamic = ({0: n}, {0: n}, {0: n}, None)
    ep, _ = export_program(rewrite_module(SharedDimInputs(), example, dynamic).module, example, dynamic)
    conds = [node for node in ep.graph.nodes if node.target is torch.ops.higher_order.cond]
    assert len(conds) == 1
    assert not any("u" in str(v) for v in conds[0].meta["val"][0].shape), "the cond's output got a new size"
    for inputs in (
        example,
        (torch.ones(7, dtype=torch.uint8), torch.rand(7), torch.rand(7), torch.tensor(2)),
    ):
        torch.testing.assert_close(ep.module()(*inputs), SharedDimInputs()(*inputs))


class SignBranch(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


def test_flags_an_abandoned_trace_left_set_do_not_reach_the_next_export():
    # dynamo abandoning a trace halfway through a probe runs no `finally` of the code it traced: a
    # probe flag left set turned every later tensor `if` of the process into a select (CI, session 13)
    from deploy.rewriters import rewrite_module
    from deploy.rewriters.trace_state import TRACE_STATE

    module = rewrite_module(SignBranch()).module
    TRACE_STATE.probing, TRACE_STATE.in_loop_body, TRACE_STATE.conds_in_body = True, True, False
    ep, _ = export_program(module, (torch.randn(3),))
    targets = {str(n.target) for n in ep.graph.nodes if n.op == "call_function"}
    assert "cond" in targets, targets
    assert (TRACE_STATE.probing, TRACE_STATE.in_loop_body, TRACE_STATE.conds_in_body) == (False, False, True)
    for x in (torch.ones(3), -torch.ones(3)):
        assert torch.equal(ep.module()(x), SignBranch()(x))


class WindowFeature(torch.nn.Module):
    """A size branch before a convolution of kernel 5, in a submodule a `while` body calls: the
    branch's trace records `frames >= 5`, true wherever it runs (8 frames and more)."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = torch.nn.Conv1d(3, 2, kernel_size=5)

    def forward(self, x):
        s = x.sum()
        if x.shape[0] >= 8:
            s = s + torch.relu(self.conv(x.t().unsqueeze(0))).mean()
        return s


class ShrinkWhilePositive(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.feature = WindowFeature()

    def forward(self, x):
        s = self.feature(x)
        k = 0
        while s > 0 and k < 3:
            x = x * 0.5 - 0.1
            s = self.feature(x)
            k += 1
        return s, x


def test_a_size_branch_in_a_helper_a_loop_body_calls_is_traced_without_its_guards(tmp_path):
    import numpy as np
    import onnx

    from deploy.rewriters import rewrite_module
    from deploy.runtimes.onnx.emit import build_onnx
    from tests.rewriters.harness import run_onnx

    model = ShrinkWhilePositive().eval()
    example, dynamic = (torch.rand(16, 3) + 0.5,), ({0: Dim("frames", min=4, max=64)},)
    ep, notes = export_program(rewrite_module(model, example, dynamic).module, example, dynamic)
    assert any("loop bodies traced without the size guards" in n for n in notes)
    onnx.save(build_onnx(ep, run_onnxsim=False).model, str(tmp_path / "m.onnx"))
    for frames in (4, 6, 7, 8, 9, 16, 64):  # both sides of the test; the loop runs 0..3 times
        for sign in (1.0, -1.0):
            x = sign * (torch.rand(frames, 3, generator=torch.Generator().manual_seed(frames)) + 0.5)
            for got, want in zip(run_onnx(tmp_path / "m.onnx", (x,)), model(x)):
                np.testing.assert_allclose(got, want.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_each_export_try_runs_with_a_raised_recursion_limit_and_restores_it():
    # dynamo inlines each converted branch and helper with dozens of frames of its own: a chain of
    # ten early returns nests past Python's default 1000 (set31 poker_showdown_evaluator)
    import sys

    from deploy.rewriters import fresh_trace_state

    before = sys.getrecursionlimit()
    with fresh_trace_state():
        assert sys.getrecursionlimit() >= max(before, 6000)
    assert sys.getrecursionlimit() == before
