"""Adaptive average pools over dynamic sizes translate to ONNX with run-time windows."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch
import torch.nn.functional as F
from torch.export import Dim

from deploy.runtimes.onnx.decompositions import size_exact
from deploy.runtimes.onnx.emit import to_onnx_proto


class Pools(torch.nn.Module):
    def forward(self, x):
        return F.adaptive_avg_pool2d(x, (3, 5)), F.adaptive_avg_pool1d(x.flatten(2), 4)


def _session(program) -> ort.InferenceSession:
    return ort.InferenceSession(
        to_onnx_proto(program).SerializeToString(), providers=["CPUExecutionProvider"]
    )


def test_adaptive_pools_match_eager_at_sizes_other_than_the_example():
    example = (torch.randn(1, 2, 12, 10),)
    dynamic = ({2: Dim("h", min=4, max=40), 3: Dim("w", min=5, max=40)},)
    program = torch.export.export(Pools(), example, dynamic_shapes=dynamic)
    session = _session(program)
    for h, w in ((12, 10), (4, 5), (7, 13), (40, 33)):
        x = torch.randn(1, 2, h, w)
        expected = [t.numpy() for t in Pools()(x)]
        got = session.run(None, {session.get_inputs()[0].name: x.numpy()})
        for g, e in zip(got, expected, strict=True):
            assert g.shape == e.shape
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def test_programs_with_static_pools_are_left_alone():
    program = torch.export.export(Pools(), (torch.randn(1, 2, 12, 10),))
    assert size_exact(program) is program


def test_full_amax_and_remainder_by_a_dynamic_size_translate():
    """``x.amax()`` without dims and ``i % w`` with ``w`` a dynamic size: torch.onnx cannot
    translate either as torch.export writes them; both are rewritten to overloads it can."""

    class Peak(torch.nn.Module):
        def forward(self, x):
            flat = x.flatten().argmax()
            return x.amax(), x.amin(), flat % x.shape[1], flat // x.shape[1]

    dynamic = ({0: Dim("h", min=2, max=40), 1: Dim("w", min=2, max=40)},)
    session = _session(torch.export.export(Peak(), (torch.randn(6, 7),), dynamic_shapes=dynamic))
    for h, w in ((6, 7), (3, 11), (17, 2)):
        x = torch.randn(h, w)
        got = session.run(None, {session.get_inputs()[0].name: x.numpy()})
        for g, e in zip(got, Peak()(x), strict=True):
            np.testing.assert_allclose(g, e.numpy(), rtol=1e-6)


def test_zero_dim_inputs_stay_zero_dim():
    """deploy's onnxruntime session feeds a 0-d input as 0-d (np.ascontiguousarray makes it 1-d,
    which broadcasts every output that depends on it to shape (1,))."""
    import tempfile
    from pathlib import Path

    import onnx

    from deploy.runtimes.onnx.session import load

    class Scale(torch.nn.Module):
        def forward(self, x, s):
            return x * s, s + 1

    program = torch.export.export(Scale(), (torch.randn(3), torch.tensor(2.0)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.onnx"
        onnx.save(to_onnx_proto(program), str(path))
        _, shifted = load(path).run([np.ones(3, np.float32), np.array(2.0, np.float32)])
    assert shifted.shape == ()


def test_clamp_with_an_int_and_a_float_bound_translates():
    """``y.clamp(0, 64.0)`` (a box clipped to the image): torch.onnx finds no overload for one int and
    one float bound; both are given as floats."""

    class Clip(torch.nn.Module):
        def forward(self, boxes):
            return torch.stack([boxes[:, 0].clamp(0, 64.0), boxes[:, 1].clamp(min=-1, max=0.5)], 1)

    dynamic = ({0: Dim("n", min=2, max=40)},)
    session = _session(torch.export.export(Clip(), (torch.randn(5, 2) * 50,), dynamic_shapes=dynamic))
    for n in (5, 2, 17):
        x = torch.randn(n, 2) * 50
        (got,) = session.run(None, {session.get_inputs()[0].name: x.numpy()})
        np.testing.assert_allclose(got, Clip()(x).numpy())


def test_clamp_with_a_symbolic_size_bound_translates():
    """``leftover.clamp(min=0, max=demand.shape[0])``: a bound that is a dynamic size has no overload
    torch.onnx finds; the Tensor overload with the bounds as 0-d tensors computes the same."""

    class Capped(torch.nn.Module):
        def forward(self, leftover, demand):
            return leftover.clamp(min=0, max=demand.shape[0]) * 2, demand.clamp(max=demand.shape[0] - 2)

    dynamic = (None, {0: Dim("n", min=2, max=40)})
    program = torch.export.export(Capped(), (torch.tensor(3.0), torch.randn(5)), dynamic_shapes=dynamic)
    session = _session(program)
    for value, n in ((3.0, 5), (9.0, 4), (-2.0, 7)):
        inputs = (torch.tensor(value), torch.arange(float(n)))
        got = session.run(None, {i.name: x.numpy() for i, x in zip(session.get_inputs(), inputs)})
        for a, b in zip(got, Capped()(*inputs)):
            np.testing.assert_allclose(a, b.numpy())


def test_cross_entropy_per_token_over_a_dynamic_batch_translates():
    """``F.cross_entropy(..., reduction="none")`` over dynamic sizes: torch.onnx's decomposition gave
    a one-element loss ("shape '[s52, s27 - 1]' is invalid for input of size 1"); the gather form
    keeps one loss per row, ignore_index and the mean/sum reductions included."""

    class TokenLoss(torch.nn.Module):
        def forward(self, logits, tokens):
            b, n = tokens.shape
            flat, target = logits[:, :-1].reshape(-1, 9), tokens[:, 1:].reshape(-1)
            nll = F.cross_entropy(flat, target, reduction="none", ignore_index=0)
            mean = F.cross_entropy(flat, target, ignore_index=0)
            return nll.view(b, n - 1), mean, F.cross_entropy(flat, target, reduction="sum")

    n = Dim("n", min=3, max=40)
    dynamic = ({0: Dim("b", min=2, max=8), 1: n}, {0: Dim("b", min=2, max=8), 1: n})
    example = (torch.randn(2, 6, 9), torch.randint(0, 9, (2, 6)))
    session = _session(torch.export.export(TokenLoss(), example, dynamic_shapes=dynamic))
    for b, length in ((2, 6), (5, 3), (3, 31)):
        logits, tokens = torch.randn(b, length, 9), torch.randint(0, 9, (b, length))
        tokens[0, 1] = 0  # an ignored target
        feed = dict(zip([i.name for i in session.get_inputs()], (logits.numpy(), tokens.numpy())))
        got = session.run(None, feed)
        for g, e in zip(got, TokenLoss()(logits, tokens), strict=True):
            assert g.shape == tuple(e.shape)
            np.testing.assert_allclose(g, e.numpy(), rtol=1e-5, atol=1e-6)
