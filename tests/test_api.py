"""The Python API used in CI: export, bench (artifact and eager), bench_compare, devices, check_ops."""

from __future__ import annotations

import pytest

import deploy
from deploy import api
from deploy.errors import InputError

SMALL = """
import torch
def model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(4 * 6 * 6, 5))
def example_inputs():
    return (torch.randn(1, 3, 8, 8),)
"""


def test_bench_of_an_artifact_and_of_eager(tmp_path, write_model):
    path = write_model(SMALL)
    res = deploy.export(path, targets=["onnx"], out=tmp_path / "out")
    onnx_result = deploy.bench(res.artifacts["onnx"].path, runs=5, warmup=1, threads=1)
    eager_result = deploy.bench(path, runs=5, warmup=1, threads=1)
    for result, runtime in ((onnx_result, "onnxruntime"), (eager_result, "torch-eager")):
        data = result.to_dict()
        assert data["runtime"] == runtime and data["runs"] == 5 and len(data["samples_ms"]) == 5
        assert data["p50_ms"] <= data["p90_ms"] <= data["p99_ms"]
        assert data["device"]["kind"] == "local"


def test_bench_compare_alternates_eager_and_artifacts_and_draws_the_chart(tmp_path, write_model):
    pytest.importorskip("matplotlib", reason="the chart is the optional 'chart' extra")
    table = api.bench_compare(write_model(SMALL), runs=3, warmup=1, threads=1, out=tmp_path / "out")
    assert [row["label"] for row in table["results"]] == ["eager", "onnx", "tflite"]
    assert [row["runtime"] for row in table["results"]] == ["torch-eager", "onnxruntime", "ai-edge-litert"]
    assert (tmp_path / "out" / "compare.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_bench_arguments():
    with pytest.raises(InputError, match="runs"):
        deploy.bench("x.onnx", runs=0)
    with pytest.raises(InputError, match="no such file"):
        deploy.bench("/no/such/model.onnx")
    with pytest.raises(InputError, match="unknown device"):
        deploy.bench("/no/such/model.onnx", device="phone")


def test_devices_lists_this_host():
    found = deploy.devices()
    assert any(d["kind"] == "local" for d in found)


def test_module_without_inputs_is_bad_input():
    import torch

    with pytest.raises(InputError, match="example_inputs"):
        deploy.export(torch.nn.ReLU())
