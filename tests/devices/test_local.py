"""The local harness: real onnxruntime (and ai-edge-litert) sessions timed in this process."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from deploy.devices import get_device
from deploy.devices.local import LocalDevice, list_devices, make_device
from deploy.errors import InputError
from deploy.runtimes.base import TensorSpec


class CountingSession:
    """A real (numpy) Session that records how it is called."""

    runtime = "numpy"

    def __init__(self, allocate_mb: int = 0):
        self.input_specs = [TensorSpec("x", (None, 8), "float32")]
        self.weight = np.ones((8, 4), np.float32)
        self.ballast = np.ones(allocate_mb * 262_144, np.float32)  # touched pages: resident memory
        self.shapes: list[tuple] = []

    def run(self, inputs):
        self.shapes.append(inputs[0].shape)
        return [inputs[0] @ self.weight]


def test_bench_onnx_gives_a_complete_result(models):
    result = get_device("local").bench(models["onnx"], runs=25, warmup=3, threads=1)
    assert result.runtime == "onnxruntime" and result.threads == 1 and result.runner == "in-process"
    assert len(result.samples_ms) == 25 and min(result.samples_ms) > 0
    assert 0 < result.p50_ms <= result.p90_ms <= result.p99_ms
    assert result.init_ms > 0 and result.first_ms > 0 and result.peak_rss_mb > 10
    data = result.to_dict()
    assert data["device"]["kind"] == "local" and data["device"]["cores"] >= 1
    assert data["samples_ms"] and data["p50_ms"] == round(result.p50_ms, 4)


def test_warmup_is_excluded_and_inputs_default_to_the_specs():
    sessions = []

    def factory():
        sessions.append(CountingSession())
        return sessions[-1]

    result = LocalDevice().bench_session(factory, label="counting", runs=7, warmup=4)
    assert len(sessions) == 1 and len(sessions[0].shapes) == 1 + 4 + 7
    assert len(result.samples_ms) == 7 and result.runtime == "numpy" and result.artifact == "counting"
    assert set(sessions[0].shapes) == {(1, 8)}  # the dynamic dim runs at 1


def test_given_inputs_are_used():
    session = CountingSession()
    LocalDevice().bench_session(
        lambda: session, label="x", runs=2, warmup=0, inputs=[np.zeros((5, 8), np.float32)]
    )
    assert set(session.shapes) == {(5, 8)}


def test_memory_comes_from_the_process_accounting():
    result = LocalDevice().bench_session(
        lambda: CountingSession(allocate_mb=96), label="big", runs=2, warmup=0
    )
    assert result.peak_added_mb is not None and result.peak_added_mb > 80
    assert result.peak_rss_mb >= result.peak_added_mb


@pytest.mark.skipif(
    importlib.util.find_spec("deploy.runtimes.tflite.session") is None,
    reason="deploy.runtimes.tflite.session is not written yet (TFLite helper)",
)
def test_bench_tflite_with_ai_edge_litert(models):
    result = LocalDevice().bench(models["tflite"], runs=10, warmup=2, threads=1)
    assert len(result.samples_ms) == 10 and result.p50_ms <= result.p99_ms
    assert "litert" in result.runtime or "tflite" in result.runtime


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"runs": 0}, "--runs"), ({"warmup": -1}, "--warmup"), ({"threads": 0}, "--threads")],
)
def test_bad_counts_are_input_errors(models, kwargs, message):
    with pytest.raises(InputError, match=message):
        LocalDevice().bench(models["onnx"], **{"runs": 3, "warmup": 0, **kwargs})


def test_bad_artifacts_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="unknown artifact type"):
        LocalDevice().bench(tmp_path / "model.bin", runs=1, warmup=0)
    with pytest.raises(InputError, match="no such file"):
        LocalDevice().bench(tmp_path / "missing.onnx", runs=1, warmup=0)
    with pytest.raises(InputError, match="no serial"):
        make_device("abc")


def test_list_devices_describes_this_host():
    (host,) = list_devices()
    assert host["kind"] == "local" and host["state"] == "device"
    assert host["cores"] >= 1 and host["os"] and host["model"]


class TransientSession(CountingSession):
    """Allocates (and frees) a large temporary on each run, like an activation arena."""

    def run(self, inputs):
        scratch = np.ones(96 * 262_144, np.float32)  # 96 MiB, touched
        out = super().run(inputs)
        del scratch
        return out


def test_peak_memory_includes_transient_allocations():
    result = LocalDevice().bench_session(TransientSession, label="transient", runs=2, warmup=0)
    assert result.peak_added_mb is not None and result.peak_added_mb > 80
