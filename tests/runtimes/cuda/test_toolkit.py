"""toolkit: the up-front checks, and the CUDA home assembled from pip-wheel headers."""

from __future__ import annotations

import pytest

from deploy.errors import InputError
from deploy.runtimes.cuda.toolkit import assemble_cuda_home, check_target_available


def _header(path, text: str = "") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_assembles_headers_and_libcuda(tmp_path):
    runtime = tmp_path / "nvidia" / "cuda_runtime" / "include"
    cccl = tmp_path / "nvidia" / "cu13" / "include" / "cccl"
    triton = tmp_path / "triton" / "include"
    _header(runtime / "cuda_runtime.h")
    _header(cccl / "nv" / "target")
    _header(triton / "cuda.h", "triton")
    _header(runtime / "cuda.h", "wheel")  # the first folder listed wins
    libcuda = tmp_path / "libcuda.so.1"
    libcuda.write_bytes(b"")
    home = assemble_cuda_home([runtime, cccl, triton], libcuda, tmp_path / "home")
    assert home == tmp_path / "home"
    assert (home / "include" / "cuda.h").read_text() == "wheel"
    assert (home / "include" / "cuda_runtime.h").exists()
    assert (home / "include" / "nv" / "target").exists()
    assert (home / "lib64" / "libcuda.so").resolve() == libcuda.resolve()
    # a second call (another compile in the same process) reuses the links
    assert assemble_cuda_home([runtime, cccl, triton], libcuda, home) == home


def test_incomplete_pieces_give_none(tmp_path):
    include = tmp_path / "include"
    _header(include / "cuda_runtime.h")
    libcuda = tmp_path / "libcuda.so.1"
    libcuda.write_bytes(b"")
    assert assemble_cuda_home([include], None, tmp_path / "a") is None
    assert assemble_cuda_home([include], libcuda, tmp_path / "b") is None  # no cuda.h anywhere


def test_missing_compiler_is_input_error(monkeypatch):
    monkeypatch.setenv("CXX", "no-such-compiler-xyz")
    with pytest.raises(InputError, match="C\\+\\+ compiler"):
        check_target_available("cpu")
