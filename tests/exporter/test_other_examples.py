"""An export that fails at the example is traced again at the user's other inputs."""

from __future__ import annotations

import pytest
import torch

import deploy
from deploy.errors import NotDeployableError, UnsupportedOpError
from deploy.exporter.other_examples import export_at_some_example, other_examples

# the size branch sits in the else side of a tensor `if` (a body dynamo traces), so its then side is
# traced at the example's 5 frames and reduces over 5 // 8 = 0 chunks: it only traces past 8 frames
CHUNKED = """
import torch

class Chunked(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.frontend = torch.nn.Conv1d(1, 2, kernel_size=4, stride=2)

    def forward(self, x):
        if x.abs().mean() < 1e-3:
            return torch.zeros(x.shape[0], 4)
        h = torch.relu(self.frontend(x.unsqueeze(1)))
        b, c, t = h.shape
        if t > 8:
            n = t // 8
            h = h[:, :, : n * 8].reshape(b, c, n, 8).mean(-1)
            pooled = h.amax(-1)
        else:
            pooled = h.mean(-1)
        spread = h.amax(-1) - h.amin(-1)
        return torch.cat([pooled, spread], dim=1)

def model():
    return Chunked()

def example_inputs():
    return (torch.randn(2, 12),)  # 5 frames

def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=6, max=96)},)

def verify_inputs():
    return [
        (torch.randn(2, 60),),  # 29 frames: chunked
        (torch.zeros(2, 20),),  # silence: early return
        (torch.randn(2, 6),),
    ]
"""


def test_a_size_branch_untraceable_at_the_example_is_traced_at_another_input(tmp_path, write_model):
    res = deploy.export(write_model(CHUNKED), targets=["onnx"], out=tmp_path / "out")
    parity = res.artifacts["onnx"].parity
    assert parity.ok and parity.cases >= 4
    assert any("traced at verify_inputs()[0]" in note for note in res.report["export"]["notes"])


def test_other_examples_are_the_largest_and_smallest_of_other_shapes():
    example = (torch.zeros(2, 6),)
    verify = [(torch.zeros(2, 6),), (torch.zeros(2, 40),), (torch.zeros(2, 3),), (torch.zeros(2, 20),)]
    assert other_examples(example, verify) == [1, 2]
    assert other_examples(example, [(torch.zeros(2, 6),)]) == []


def _failing_at(sizes: set[int], error=NotDeployableError):
    """An export that fails for inputs whose last dim is in ``sizes``; records the sizes it saw."""
    seen = []

    def export(module, inputs, dynamic_shapes):
        seen.append(inputs[0].shape[-1])
        if inputs[0].shape[-1] in sizes:
            raise error(f"failed at {inputs[0].shape[-1]}")
        return "program", []

    return export, seen


def test_the_retry_depends_on_the_failure_only():
    example, verify = (torch.zeros(2, 6),), [(torch.zeros(2, 40),), (torch.zeros(2, 3),)]
    export, seen = _failing_at({6, 40})
    program, notes = export_at_some_example(None, example, verify, {}, export)
    assert (program, seen) == ("program", [6, 40, 3])
    assert notes == ["traced at verify_inputs()[1]: at example_inputs() the export failed (failed at 6)"]
    export, seen = _failing_at({6, 40, 3})
    with pytest.raises(NotDeployableError, match="failed at 6"):
        export_at_some_example(None, example, verify, {}, export)
    # an op with no translation is in the program at any input; static shapes have no other program
    for error, dynamic in ((UnsupportedOpError, {}), (NotDeployableError, None)):
        export, seen = _failing_at({6}, error)
        with pytest.raises(error):
            export_at_some_example(None, example, verify, dynamic, export)
        assert seen == [6]
