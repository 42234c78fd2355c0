"""Verification: the cases built, the tolerance rule, and the worst mismatch reported."""

from __future__ import annotations

import numpy as np
import torch

from deploy.exporter.shapes import DynamicDim
from deploy.exporter.verify import build_cases, compare, eager_reference, verify
from deploy.runtimes.base import TensorSpec


def test_cases_cover_example_random_sizes_and_verify_inputs():
    example = (torch.randn(1, 8, 4), torch.randint(0, 5, (1, 8)))
    dims = [DynamicDim(0, 1, "s0", 1, 64), DynamicDim(1, 1, "s0", 1, 64)]
    cases = build_cases(example, dims, extra=[(torch.ones(1, 3, 4), torch.zeros(1, 3, dtype=torch.long))])
    labels = [c.label for c in cases]
    assert labels[:2] == ["example", "random"]
    assert any("(min)" in lab for lab in labels) and any("(max)" in lab for lab in labels)
    assert labels[-1] == "verify_inputs[0]"
    for case in cases:
        a, b = case.inputs
        assert a.shape[1] == b.shape[1]  # dims sharing a symbol share a size
        assert b.dtype == torch.long and int(b.min()) >= 0 and int(b.max()) <= 4


def test_generated_inputs_keep_a_non_negative_example_non_negative():
    counts = torch.tensor([[3.0, 0.0, 12.0, 1.0]])  # counts, intensities: log1p/sqrt of them stay finite
    signed = torch.tensor([[0.5, -2.0, 1.0, 0.0]])
    dims = [DynamicDim(0, 1, "s0", 2, 64), DynamicDim(1, 1, "s0", 2, 64)]
    cases = build_cases((counts, signed), dims)
    assert all(float(c.inputs[0].min()) >= 0 for c in cases)
    assert any(float(c.inputs[1].min()) < 0 for c in cases[1:])


def test_capped_max_respects_the_dims_own_max():
    dims = [DynamicDim(0, 0, "b", 0, 3)]
    sizes = [c.inputs[0].shape[0] for c in build_cases((torch.randn(2, 2),), dims)]
    assert max(sizes) == 3 and min(sizes) == 1


def test_compare_uses_error_relative_to_output_magnitude():
    ref = [np.array([100.0, 1.0], dtype=np.float32)]
    ok = compare(ref, [np.array([100.005, 1.0], dtype=np.float32)])[0]
    bad = compare(ref, [np.array([100.0, 1.5], dtype=np.float32)])[0]
    assert ok[2] and not bad[2]
    assert abs(bad[1] - 0.005) < 1e-6
    shape = compare(ref, [np.zeros(3, dtype=np.float32)])[0]
    assert not shape[2] and "shape" in shape[3]


def test_compare_takes_equal_infinities_as_a_match():
    ref = [np.array([np.inf, -np.inf, 2.0], dtype=np.float32)]
    same = compare(ref, [np.array([np.inf, -np.inf, 2.0], dtype=np.float32)])[0]
    finite = compare(ref, [np.array([1e30, -np.inf, 2.0], dtype=np.float32)])[0]
    assert same[2] and same[0] == 0.0
    assert not finite[2]


class WrongSession:
    """The other side of the comparison: an artifact that is off by 1% on large inputs."""

    runtime = "test"
    input_specs = [TensorSpec("x", (None, 4), "float32")]

    def run(self, inputs):
        x = inputs[0]
        out = np.tanh(x)
        return [out * 1.01 if x.shape[0] > 3 else out]


def test_verify_reports_the_worst_case():
    cases = build_cases((torch.randn(2, 4),), [DynamicDim(0, 0, "b", 1, 8)])
    parity = verify(WrongSession(), eager_reference(torch.nn.Tanh()), cases)
    assert not parity.ok
    assert parity.worst["input_shapes"][0][0] > 3
    assert parity.worst["max_rel"] > 5e-3
    assert parity.cases == len(cases)


def test_generated_cases_the_model_rejects_are_dropped_with_a_note():
    from deploy.exporter.verify import runnable_cases

    class Steps(torch.nn.Module):
        def forward(self, x, lengths):  # reads x[:, t] for t < max(lengths): lengths must fit x
            return torch.stack([x[:, t] for t in range(int(lengths.max()))], 1)

    example = (torch.randn(2, 6), torch.tensor([6, 3]))
    dims = [DynamicDim(0, 1, "t", 1, 64)]
    cases = build_cases(example, dims, extra=[(torch.randn(2, 4), torch.tensor([4, 1]))])
    kept, notes = runnable_cases(cases, eager_reference(Steps()))
    labels = [c.label for c in kept]
    assert "example" in labels and "verify_inputs[0]" in labels
    assert notes and all("eager PyTorch raises" in n for n in notes)
    assert len(kept) + len(notes) == len(cases)  # the min size (t=1) cannot hold lengths up to 6


def test_generated_cases_eager_never_finishes_are_dropped(monkeypatch):
    """A generated input on which the model's own loop never ends (a negative tolerance) is
    dropped after the time limit instead of hanging the export."""
    import deploy.exporter.verify as verify_module
    from deploy.exporter.verify import Case, runnable_cases

    class Bisect(torch.nn.Module):
        def forward(self, tol):
            lo, hi = torch.tensor(0.0), torch.tensor(1.0)
            while hi - lo > tol:
                hi = (lo + hi) / 2
            return hi

    monkeypatch.setattr(verify_module, "GENERATED_CASE_SECONDS", 1)
    cases = [Case("example", (torch.tensor(0.1),)), Case("random", (torch.tensor(-1.0),))]
    kept, notes = runnable_cases(cases, eager_reference(Bisect()))
    assert [c.label for c in kept] == ["example"]
    assert len(notes) == 1 and "did not finish" in notes[0]
