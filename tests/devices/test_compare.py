"""compare(): entries alternate run by run; table and chart show the dynamic-vs-static figures."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from deploy.devices.compare import compare, write_chart
from deploy.errors import InputError
from deploy.runtimes import load
from deploy.runtimes.base import TensorSpec


class LoggingSession:
    runtime = "numpy"

    def __init__(self, name: str, log: list[str]):
        self.name, self.log = name, log
        self.input_specs = [TensorSpec("x", (2, 3), "float32")]

    def run(self, inputs):
        self.log.append(self.name)
        return [inputs[0] * 2]


def test_entries_alternate_run_by_run():
    log: list[str] = []
    entries = {name: (lambda name=name: LoggingSession(name, log)) for name in ("eager", "onnx", "tflite")}
    results = compare(entries, runs=6, warmup=2, threads=None)
    assert [r.artifact for r in results] == ["eager", "onnx", "tflite"]
    measured = log[len(log) - 6 * 3 :]
    rounds = [measured[i : i + 3] for i in range(0, len(measured), 3)]
    assert all(sorted(r) == ["eager", "onnx", "tflite"] for r in rounds)  # each once per round
    assert len({tuple(r) for r in rounds}) > 1  # the order rotates
    assert all(len(r.samples_ms) == 6 and r.runner == "compare (alternating)" for r in results)


def test_compare_real_onnx_against_numpy(models):
    inputs = [np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)]
    entries = {"numpy": lambda: LoggingSession("numpy", []), "onnx": lambda: load(models["onnx"], threads=1)}
    results = compare(entries, runs=5, warmup=1, threads=1, inputs_for={"onnx": inputs})
    assert results[1].runtime == "onnxruntime" and results[1].p50_ms > 0
    assert results[0].runtime == "numpy" and results[0].p90_ms >= results[0].p50_ms


def test_nothing_to_compare_is_an_input_error():
    with pytest.raises(InputError):
        compare({}, runs=1, warmup=0)


def test_chart_without_matplotlib_is_skipped(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    results = compare({"a": lambda: LoggingSession("a", [])}, runs=2, warmup=0)
    assert write_chart(results, tmp_path / "compare.png") is None
    assert not (tmp_path / "compare.png").exists()


def test_chart_is_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    log: list[str] = []
    results = compare({n: (lambda n=n: LoggingSession(n, log)) for n in ("eager", "onnx")}, runs=3, warmup=0)
    path = write_chart(results, tmp_path / "out" / "compare.png")
    assert path is not None and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
