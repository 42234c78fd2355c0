"""The cuda device: refused cleanly without a GPU, CUDA-event and CUDA-graph benches on one.

The @pytest.mark.cuda tests compile a tiny model for the GPU and skip without one. The local
bench of a .cpu.pt2 runs everywhere.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
import torch
from torch import nn

from deploy import api, runtimes
from deploy.devices import cuda
from deploy.devices.result import BenchResult, DeviceInfo
from deploy.errors import DeviceError, InputError
from deploy.runtimes.cuda.eager import TorchSession
from deploy.runtimes.cuda.emit import emit_pt2

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
HAS_CUDA = torch.cuda.is_available()
needs_gpu = pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU (torch.cuda.is_available() is False)")
no_cuda = pytest.mark.skipif(HAS_CUDA, reason="checks the refusal on a machine without CUDA")


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(16, 32), nn.Linear(32, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def _package(tmp_path_factory, device: str):
    torch.manual_seed(0)
    model = Tiny().eval()
    program = torch.export.export(model, (torch.randn(2, 16),), strict=False)
    out = tmp_path_factory.mktemp(device) / f"model.{device}.pt2"
    return model, emit_pt2(program, out, device=device)["path"]


@pytest.fixture(scope="module")
def cpu_pt2(tmp_path_factory):
    return _package(tmp_path_factory, "cpu")


@pytest.fixture(scope="module")
def cuda_pt2(tmp_path_factory):
    return _package(tmp_path_factory, "cuda")


@no_cuda
def test_no_gpu_lists_nothing_and_refuses():
    assert cuda.list_devices() == []
    with pytest.raises(DeviceError, match="CUDA") as caught:
        cuda.make_device(None)
    assert caught.value.exit_code == 2


@no_cuda
def test_eager_baseline_of_a_model_py_runs_on_the_gpu_or_refuses():
    """`deploy bench model.py --device cuda` times the module on the GPU; without one that is refused."""
    loaded = api.load(SAMPLES / "branchy.py")
    factory = cuda.CudaDevice(0).eager_factory(loaded)
    with pytest.raises(InputError, match="CUDA"):
        factory()


def test_cpu_package_refused_on_the_cuda_device(cpu_pt2):
    with pytest.raises(InputError, match="--device local"):
        cuda.CudaDevice(0).bench(cpu_pt2[1], runs=1, warmup=0)


def test_other_artifacts_refused(tmp_path):
    with pytest.raises(InputError, match=r"\.pt2"):
        cuda.CudaDevice(0).bench(tmp_path / "model.onnx", runs=1, warmup=0)


def test_local_bench_of_cpu_package(cpu_pt2):
    """A .cpu.pt2 timed on this host through deploy.runtimes.load, reported as a schema-1 BenchResult."""
    model, path = cpu_pt2
    start = time.perf_counter()
    session = runtimes.load(path, threads=1)
    init_ms = (time.perf_counter() - start) * 1e3
    x = np.random.default_rng(0).standard_normal((2, 16)).astype(np.float32)
    samples = []
    for _ in range(6):
        begin = time.perf_counter()
        (out,) = session.run([x])
        samples.append((time.perf_counter() - begin) * 1e3)
    with torch.no_grad():
        np.testing.assert_allclose(out, model(torch.from_numpy(x)).numpy(), rtol=1e-4, atol=1e-6)
    result = BenchResult(
        DeviceInfo("local"), session.runtime, path, 1, init_ms, samples[0], 5, 0, samples[1:]
    )
    report = result.to_dict()
    assert report["runtime"] == "aotinductor" and report["schema"] == 1
    assert 0 < report["p50_ms"] <= report["p90_ms"] <= report["p99_ms"]


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("cuda_graph", [False, True])
def test_cuda_bench_of_cuda_package(cuda_pt2, cuda_graph):
    _, path = cuda_pt2
    result = cuda.make_device("0").bench(path, runs=5, warmup=2, cuda_graph=cuda_graph).to_dict()
    assert result["runtime"] == "aotinductor"
    assert result["device"]["kind"] == "cuda" and result["device"]["model"]
    assert len(result["samples_ms"]) == 5 and result["p50_ms"] > 0
    assert result["runner"] == ("cuda-graph-replay" if cuda_graph else "cuda-events")


@pytest.mark.cuda
@needs_gpu
def test_cuda_package_matches_eager_on_gpu(cuda_pt2):
    model, path = cuda_pt2
    session = runtimes.load(path)
    x = np.random.default_rng(1).standard_normal((2, 16)).astype(np.float32)
    eager = TorchSession(model, [torch.from_numpy(x)])
    np.testing.assert_allclose(session.run([x])[0], eager.run([x])[0], rtol=1e-4, atol=1e-5)


@pytest.mark.cuda
@needs_gpu
def test_eager_session_bench_on_gpu():
    device = cuda.make_device(None)
    result = device.bench_session(
        lambda: TorchSession(Tiny(), [torch.randn(2, 16)]), label="eager", runs=4, warmup=1, threads=None
    )
    assert result.runtime == "torch-eager" and len(result.samples_ms) == 4
    assert cuda.list_devices()[0]["kind"] == "cuda"


@pytest.mark.cuda
@needs_gpu
@pytest.mark.parametrize("cuda_graph", [False, True])
def test_eager_bench_of_a_model_py_on_gpu(cuda_graph):
    result = api.bench(SAMPLES / "branchy.py", device="cuda", runs=4, warmup=1, cuda_graph=cuda_graph)
    assert result.runtime == "torch-eager" and len(result.samples_ms) == 4
    assert result.runner == ("cuda-graph-replay" if cuda_graph else "cuda-events")


@pytest.mark.cuda
@needs_gpu
def test_cpu_session_refused_on_the_cuda_device():
    device = cuda.make_device(None)
    with pytest.raises(InputError, match="run on the GPU"):
        device.bench_session(
            lambda: TorchSession(Tiny(), [torch.randn(2, 16)], device="cpu"), label="cpu", runs=1, warmup=0
        )
