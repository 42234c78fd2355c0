"""``if current: segments.append(pool(torch.stack(current)))`` after a loop that resets
``current``: the graph computes the pooled value whether the list is empty or not, so it pools at
least one row (LiteRT's kernels fail on a softmax over none, which eager never computes)."""

from __future__ import annotations

import numpy as np
import torch

from deploy.exporter.export import export_program
from deploy.rewriters import rewrite_module
from deploy.runtimes.onnx.emit import build_onnx
from deploy.runtimes.tflite.emit import emit_tflite
from deploy.runtimes.tflite.session import load
from tests.rewriters.models.segments import CASES, SegmentPooler


def test_a_list_emptied_by_the_loop_is_pooled_from_a_row_in_the_graph(tmp_path):
    case = next(c for c in CASES if c.name == "segments_stacked_pooled_and_reset_in_a_loop")
    torch.manual_seed(0)
    model = SegmentPooler().eval().requires_grad_(False)  # as deploy's freeze leaves it
    converted = rewrite_module(model).module
    program, _ = export_program(converted, case.example, case.dynamic_shapes)
    proto = build_onnx(program).model
    session = load(emit_tflite(proto, tmp_path / "segments.tflite")["path"])
    for n in (2, 3, 6):
        x = torch.randn(n, 3)
        marks = torch.ones(n)  # every token closes its segment: nothing is left open after the loop
        expected = model(x, marks).detach().numpy()
        np.testing.assert_allclose(session.run([x.numpy(), marks.numpy()])[0], expected, atol=1e-5)
