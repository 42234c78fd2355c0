"""samples/branchy.py and samples/rnn_loop.py convert, export to ONNX and match eager, rnn_loop at
sequence lengths other than the example's (dim 1 dynamic, 1..64)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import torch

from tests.rewriters.harness import check

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _load(stem: str):
    spec = importlib.util.spec_from_file_location(f"_deploy_test_sample_{stem}", SAMPLES / f"{stem}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_branchy_exports_with_a_cond():
    sample = _load("branchy")
    outcome = check(sample.model().eval(), sample.example_inputs(), sample.verify_inputs())
    assert [(r.kind, r.line) for r in outcome.rewrites] == [("if->cond", 17)]
    assert not outcome.all_branches - outcome.branches


def test_rnn_loop_exports_as_a_loop_at_every_length():
    sample = _load("rnn_loop")
    lengths = [1, 3, 8, 29, 64]
    verify = [(torch.randn(2, n, 16),) for n in lengths]
    outcome = check(sample.model().eval(), sample.example_inputs(), verify, sample.dynamic_shapes())
    assert [(r.kind, r.line) for r in outcome.rewrites] == [("for->scan", 22)]
    assert outcome.cases >= len(lengths) + 1
