"""A loop whose carried value really changes size, reached only through loop_common.sizes_kept
(the last resort that reads each carried value back at its incoming size): the exported loop must
not return a clamped copy that looks right. It gives NaN (or fails) instead, so verification and
users see the change."""

import math
import tempfile
from pathlib import Path

import torch
from torch import nn

from deploy.rewriters import rewrite_module
from tests.rewriters.harness import export_onnx, run_onnx


class Halving(nn.Module):
    def forward(self, x):
        k = int((x > 0).sum().item())
        y = x[: k + 1]
        for _ in range(x.shape[0]):
            y = y[y >= y.median()] * 1.5  # fewer rows each time, never none
        return y.sum()


def test_a_size_the_loop_changes_is_not_clamped_silently():
    g = torch.Generator().manual_seed(3)
    x = torch.randn(12, generator=g)
    example = (torch.randn(8, generator=g),)
    dims = ({0: torch.export.Dim("n", min=2, max=32)},)
    model = rewrite_module(Halving().eval().requires_grad_(False), example, dims).module
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.onnx"
        export_onnx(model, example, dims, path)
        try:
            got = float(run_onnx(path, (x,))[0])
        except Exception:  # onnxruntime refusing the changed size is as good as NaN
            return
    assert math.isnan(got), f"a clamped loop value gave {got} (eager: {float(Halving()(x))})"
