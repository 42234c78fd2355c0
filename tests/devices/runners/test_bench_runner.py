"""The device-side Python runner, run here as a board would run it (a separate python3 process)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from deploy.devices.adb.runners import RUNNER_SCRIPT, parse_python_output


def _run(model, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(RUNNER_SCRIPT), "--model", str(model), *args],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.mark.parametrize("kind", ["onnx", "tflite"])
def test_runner_prints_raw_samples(models, kind):
    done = _run(models[kind], "--runs", "9", "--warmup", "2", "--threads", "1")
    assert done.returncode == 0, done.stderr
    data = parse_python_output(done.stdout)
    assert len(data["samples_ms"]) == 9 and data["init_ms"] > 0 and data["first_ms"] > 0
    assert data["runtime"] == {"onnx": "onnxruntime", "tflite": "ai-edge-litert"}[kind]
    assert data["peak_rss_mb"] > 10


def test_runner_fails_clearly_on_a_broken_model(tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a model")
    done = _run(broken, "--runs", "1")
    assert done.returncode == 4 and "model failed on this device" in done.stderr
    assert "__deploy_result__" not in done.stdout
