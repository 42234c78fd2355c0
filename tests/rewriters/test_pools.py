"""Pooling whose window is a size known only when the model runs (rewriters/pools.py): the gather
that stands in for torch's pool matches it for every window, plain-int windows stay torch's, and a
window computed from the input's own sizes exports through deploy's exporter and verifies."""

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from deploy.rewriters.pools import pool

POOLS = [
    (F.avg_pool2d, {"ceil_mode": True}),
    (F.avg_pool2d, {}),
    (F.avg_pool2d, {"stride": 2, "ceil_mode": True}),
    (F.avg_pool2d, {"divisor_override": 3}),
    (F.max_pool2d, {"ceil_mode": True}),
    (F.avg_pool1d, {"padding": 1, "ceil_mode": True, "count_include_pad": False}),
    (F.avg_pool1d, {"padding": 1}),
    (F.max_pool1d, {"stride": 1}),
    (F.avg_pool3d, {"ceil_mode": True}),
    (F.max_pool3d, {"padding": 1}),
]


class PoolBy(nn.Module):
    """A window read from a tensor (an unbacked size, as a window computed after a size branch)."""

    def __init__(self, fn, options):
        super().__init__()
        self.fn, self.options = fn, options

    def forward(self, x, window):
        k = window.item()
        torch._check(k >= 2)
        torch._check(k <= 5)
        return pool(self.fn, x, k, **self.options)


@pytest.mark.parametrize(("fn", "options"), POOLS, ids=lambda v: getattr(v, "__name__", str(v)))
def test_a_window_known_only_at_run_time_matches_torch_for_every_window(fn, options):
    spatial = int(fn.__name__[-2])
    shape = (1, 2, *[7] * (spatial - 1))
    dynamic = ({len(shape): torch.export.Dim("w", min=12, max=64)}, None)
    program = torch.export.export(
        PoolBy(fn, options), (torch.randn(*shape, 21), torch.tensor(3)), dynamic_shapes=dynamic
    )
    for width in (12, 17, 23, 64):
        x = torch.randn(*shape, width)
        for k in (2, 3, 5):
            expected = fn(x, k, **options)
            got = program.module()(x, torch.tensor(k))
            assert got.shape == expected.shape, (width, k)
            torch.testing.assert_close(got, expected, msg=f"width {width}, window {k}")


class PoolByTwo(nn.Module):
    def forward(self, x):
        return pool(F.max_pool2d, x, 2)


def test_a_python_int_window_stays_torch_pool():
    program = torch.export.export(PoolByTwo(), (torch.randn(1, 2, 8, 8),))
    targets = {n.target for n in program.graph.nodes}
    assert (
        torch.ops.aten.max_pool2d_with_indices.default in targets
        or torch.ops.aten.max_pool2d.default in targets
    )
    assert not any("index" in str(t) for t in targets)


WINDOW_FROM_INPUT_SIZES = """
import torch
import torch.nn.functional as F
from torch.export import Dim

class Smoothed(torch.nn.Module):
    def forward(self, x):
        k = max(2, x.shape[-1] // 8)
        y = F.avg_pool2d(x, k, ceil_mode=True)
        if y.mean() > 0:
            return y * 2
        return y

def model():
    return Smoothed().eval()

def example_inputs():
    return (torch.randn(1, 3, 12, 40),)

def dynamic_shapes():
    return ({3: Dim("t", min=16, max=200)},)

def verify_inputs():
    return [example_inputs(), (torch.randn(1, 3, 12, 77) + 1,), (torch.randn(1, 3, 12, 16) - 1,)]
"""


def test_a_window_from_the_input_sizes_exports_and_verifies(tmp_path, write_model):
    from deploy import api

    result = api.export(write_model(WINDOW_FROM_INPUT_SIZES), targets=["onnx"], out=tmp_path / "out")
    assert result.ok, result.errors
