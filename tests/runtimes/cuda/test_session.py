"""Pt2Session: a .pt2 behind the common runtime interface (numpy in, numpy out)."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
import torch

from deploy import runtimes
from deploy.errors import InputError
from deploy.runtimes.base import TensorSpec

no_cuda = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the refusal on a machine without CUDA")


def test_load_by_suffix_and_specs(cpu_package):
    _, _, info = cpu_package
    session = runtimes.load(info["path"], threads=1)
    assert session.runtime == "aotinductor"
    assert session.input_specs == [TensorSpec("x", (None, 3, 16, 16), "float32")]
    assert session.output_specs[0].shape == (None, 5)
    assert session.example_shapes == [[2, 3, 16, 16]]
    assert [a.shape for a in session.sample_inputs()] == [(2, 3, 16, 16)]


def test_run_matches_eager(cpu_package):
    model, _, info = cpu_package
    session = runtimes.load(info["path"])
    x = np.random.default_rng(3).standard_normal((4, 3, 16, 16)).astype(np.float32)
    (got,) = session.run([x])
    with torch.no_grad():
        want = model(torch.from_numpy(x)).numpy()
    assert got.dtype == np.float32 and got.shape == (4, 5)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_wrong_input_count(cpu_package):
    session = runtimes.load(cpu_package[2]["path"])
    with pytest.raises(InputError, match="takes 1 inputs, got 2"):
        session.run([np.zeros((1, 3, 16, 16), np.float32)] * 2)


def _fake_package(path, metadata: dict) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("archive/data/aotinductor/model/m.wrapper_metadata.json", json.dumps(metadata))


@no_cuda
def test_cuda_package_without_cuda_names_cuda(tmp_path):
    path = tmp_path / "model.cuda.pt2"
    _fake_package(path, {"AOTI_DEVICE_KEY": "cuda"})
    with pytest.raises(InputError, match="CUDA") as caught:
        runtimes.load(path)
    assert caught.value.exit_code == 2


def test_not_a_package(tmp_path):
    path = tmp_path / "model.cpu.pt2"
    path.write_bytes(b"not a zip")
    with pytest.raises(InputError, match="not a .pt2 package"):
        runtimes.load(path)
