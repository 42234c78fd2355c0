"""Epsilons and near-one factors survive torch.onnx's graph optimizer, whose no-op rules match
``x + 0`` / ``x * 1`` approximately (``x + 1e-9`` was dropped: a quiet signal's level in dB was
off by almost one dB)."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import torch

from deploy.runtimes.onnx.emit import build_onnx
from deploy.runtimes.onnx.exact_rules import _pattern_constants, exact_constant_patterns


class QuietLevel(torch.nn.Module):
    def forward(self, x):
        return 10.0 * torch.log10((x**2).mean() + 1e-9), x * 1.000005


def test_tiny_epsilon_and_near_one_factor_are_kept():
    x = torch.randn(16) * 1e-4
    program = torch.export.export(QuietLevel(), (x,))
    model = build_onnx(program, run_onnxsim=True).model
    ops = [n.op_type for n in model.graph.node]
    assert "Add" in ops and "Mul" in ops
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    level, scaled = session.run(None, {session.get_inputs()[0].name: x.numpy()})
    want_level, want_scaled = QuietLevel()(x)
    np.testing.assert_allclose(level, want_level.numpy(), rtol=1e-5)
    np.testing.assert_array_equal(scaled, want_scaled.numpy())


def test_tolerances_are_restored_afterwards():
    constants = _pattern_constants()
    assert constants, "onnxscript's default rules have pattern constants"
    before = [(c._rel_tol, c._abs_tol) for c in constants]
    with exact_constant_patterns():
        assert all(c._rel_tol == 0.0 and c._abs_tol == 0.0 for c in constants)
    assert [(c._rel_tol, c._abs_tol) for c in constants] == before
