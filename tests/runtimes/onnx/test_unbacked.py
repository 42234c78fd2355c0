"""Programs with data-dependent (unbacked) sizes that torch.onnx used to refuse or that failed in
onnxruntime: a cond whose branches return different lengths, cumprod (no ONNX translation in
torch.onnx), argmax over a window that is empty on a path whose value is discarded."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch
from torch._higher_order_ops.scan import scan
from torch.export import Dim

from deploy.runtimes.onnx.emit import to_onnx_proto


def _run(program, *inputs) -> list[np.ndarray]:
    session = ort.InferenceSession(to_onnx_proto(program).SerializeToString())
    names = [i.name for i in session.get_inputs()]
    return session.run(None, {n: t.numpy() for n, t in zip(names, inputs)})


class ShortOrScanned(torch.nn.Module):
    """A cond returning 1 value on one side and a loop's T values on the other (an output of
    unbacked length), like ``return q.view(1)`` before a loop collecting one value per frame."""

    def forward(self, x):
        def few(x):
            return x[-1].sum().view(1)

        def many(x):
            def step(carry, row):
                carry = torch.maximum(carry, row.sum())
                return carry, carry.clone()

            return scan(step, x[0].sum(), x)[1]

        return torch.cond(x.shape[0] < 4, few, many, (x,))


def test_a_cond_returning_different_lengths_translates_and_matches():
    x = torch.randn(8, 3)
    ep = torch.export.export(ShortOrScanned(), (x,), dynamic_shapes=({0: Dim("t", min=2, max=64)},))
    for rows in (2, 3, 8, 20):
        x = torch.randn(rows, 3)
        (got,) = _run(ep, x)
        np.testing.assert_allclose(got, ShortOrScanned()(x).numpy(), rtol=1e-6)


class Products(torch.nn.Module):
    def forward(self, flags, x):
        return torch.cumprod(flags.long(), dim=-1).sum(-1), torch.cumprod(x, dim=0)


def test_cumprod_matches_eager_for_ints_and_floats():
    flags, x = torch.rand(3, 7) > 0.3, torch.randn(5, 4)
    ep = torch.export.export(
        Products(), (flags, x), dynamic_shapes=({1: Dim("l", min=2, max=32)}, {0: Dim("n", min=2, max=32)})
    )
    for cols, rows in ((7, 5), (2, 9), (16, 2)):
        flags, x = torch.rand(3, cols) > 0.3, torch.randn(rows, 4)
        counts, products = _run(ep, flags, x)
        want_counts, want_products = Products()(flags, x)
        np.testing.assert_array_equal(counts, want_counts.numpy())
        np.testing.assert_allclose(products, want_products.numpy(), rtol=1e-5)


class PeakOrStart(torch.nn.Module):
    """Both sides computed and one picked, as in a converted loop body: ``argmax`` of a window
    that is empty exactly when its result is not picked."""

    def forward(self, x, start):
        lo = start.item()
        torch._check(lo >= 0)
        torch._check(lo <= x.shape[0])
        window = x[lo:]
        return torch.where(start < x.shape[0], lo + torch.argmax(window), -1)


def test_argmax_of_an_empty_window_that_is_not_picked_runs():
    x = torch.randn(6)
    ep = torch.export.export(
        PeakOrStart(), (x, torch.tensor(2)), dynamic_shapes=({0: Dim("n", min=2, max=32)}, None)
    )
    for start in (0, 2, 5, 6):
        x = torch.randn(6)
        (got,) = _run(ep, x, torch.tensor(start))
        want = -1 if start == 6 else start + int(torch.argmax(x[start:]))
        assert int(got) == want


class NearestPerSector(torch.nn.Module):
    """The nearest obstacle in each of 8 sectors of a depth row whose width varies."""

    def forward(self, depth):
        return -torch.nn.functional.adaptive_max_pool2d(-depth, (2, 8))


def test_adaptive_max_pool_over_a_dynamic_width_uses_pytorchs_windows():
    depth = torch.rand(1, 1, 6, 40)
    ep = torch.export.export(
        NearestPerSector(),
        (depth,),
        dynamic_shapes=({2: Dim("h", min=2, max=64), 3: Dim("w", min=8, max=256)},),
    )
    for h, w in ((6, 40), (5, 37), (2, 100), (9, 8)):
        depth = torch.rand(1, 1, h, w)
        (got,) = _run(ep, depth)
        np.testing.assert_array_equal(got, NearestPerSector()(depth).numpy())
