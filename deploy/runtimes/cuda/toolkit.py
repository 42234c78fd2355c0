"""What an AOTInductor build needs on this machine, checked before any work is done.

Both targets need a C++ compiler (AOTInductor compiles a C++ wrapper into a shared library).
The cuda target also needs a CUDA GPU and the CUDA headers plus ``libcuda`` to link against.
PyTorch finds those through CUDA_HOME (or nvcc, or /usr/local/cuda); a machine that got CUDA
only from pip wheels has the headers inside ``site-packages/nvidia/...`` and no CUDA_HOME, so
we assemble a minimal CUDA home from those wheels (links only) instead of failing.
"""

from __future__ import annotations

import ctypes.util
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

from deploy.errors import InputError

DEVICES = ("cuda", "cpu")


def cxx_compiler() -> str | None:
    """The C++ compiler Inductor will call (it reads $CXX, default g++), or None when absent."""
    return shutil.which(os.environ.get("CXX", "g++"))


def cuda_available() -> bool:
    import torch

    return bool(torch.cuda.is_available())


def check_device(device: str) -> None:
    """Raise InputError (exit 2) unless ``device`` can run here: a known name, and CUDA for 'cuda'."""
    if device not in DEVICES:
        raise InputError(f"unknown AOTInductor device {device!r}; expected 'cuda' or 'cpu'")
    if device == "cuda" and not cuda_available():
        raise InputError(
            "--target cuda needs a CUDA GPU, and this machine has none visible to PyTorch "
            "(torch.cuda.is_available() is False); use --target cpu for the host CPU"
        )


def check_target_available(device: str) -> None:
    """Everything an AOTInductor build for ``device`` needs, checked up front (InputError, exit 2)."""
    check_device(device)
    if cxx_compiler() is None:
        raise InputError(
            f"--target {device} needs a C++ compiler for AOTInductor; "
            f"{os.environ.get('CXX', 'g++')!r} is not on PATH (set CXX or install g++)"
        )
    if device == "cuda":
        ensure_cuda_home()


def _cpp_extension():
    from torch.utils import cpp_extension

    return cpp_extension


def _wheel_include_dirs() -> list[Path]:
    """Header folders of the pip-installed CUDA wheels (nvidia/*/include, nvidia/cu*/include), then Triton's."""
    found: list[Path] = []
    spec = importlib.util.find_spec("nvidia")
    for root in list(spec.submodule_search_locations or []) if spec else []:
        for include in sorted(p for p in Path(root).glob("*/include") if p.is_dir()):
            found.append(include)
            if (include / "cccl").is_dir():
                found.append(include / "cccl")  # CUDA 13 wheels: <nv/target> lives under include/cccl
    triton = importlib.util.find_spec("triton")
    if triton is not None and triton.origin:
        include = Path(triton.origin).parent / "backends" / "nvidia" / "include"
        if include.is_dir():
            found.append(include)  # Triton ships cuda.h for its launcher
    return found


def _libcuda() -> Path | None:
    """The driver library (libcuda.so*): the one this process has loaded, else the usual places."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                if "/libcuda.so" in path:
                    return Path(path)
    except OSError:
        pass
    name = ctypes.util.find_library("cuda")
    for candidate in ([name] if name else []) + ["libcuda.so.1", "libcuda.so"]:
        for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/nvidia/lib64"):
            path = Path(folder) / candidate
            if path.exists():
                return path
    return None


def assemble_cuda_home(includes: list[Path], libcuda: Path | None, home: Path) -> Path | None:
    """Make ``home`` a CUDA home of links: include/ (first header of each name wins) and lib64/libcuda.so.

    None when the pieces are incomplete (no libcuda, or no cuda.h among the headers).
    """
    if not includes or libcuda is None:
        return None
    (home / "include").mkdir(parents=True, exist_ok=True)
    (home / "lib64").mkdir(exist_ok=True)
    for folder in includes:
        for entry in folder.iterdir():
            link = home / "include" / entry.name
            if not link.exists() and not link.is_symlink():
                link.symlink_to(entry)
    lib = home / "lib64" / "libcuda.so"
    if not lib.exists():
        lib.symlink_to(libcuda)
    return home if (home / "include" / "cuda.h").exists() else None


def ensure_cuda_home() -> str:
    """The CUDA home Inductor will compile against, assembling one from pip wheels when none exists.

    Returns a note saying which one; raises InputError naming CUDA when there is none to be had.
    """
    cpp_extension = _cpp_extension()
    home = cpp_extension.CUDA_HOME
    if home and (Path(home) / "include" / "cuda.h").exists():
        return f"CUDA headers from {home}"
    target = Path(tempfile.gettempdir()) / f"deploy-cuda-home-{os.getuid()}"
    assembled = assemble_cuda_home(_wheel_include_dirs(), _libcuda(), target)
    if assembled is None:
        raise InputError(
            "--target cuda needs the CUDA toolkit headers (cuda.h) to compile the AOTInductor wrapper; "
            "none found via CUDA_HOME, nvcc, /usr/local/cuda or the pip nvidia-* wheels (set CUDA_HOME)"
        )
    # cpp_extension reads CUDA_HOME once at import; Inductor's builder also consults the environment.
    os.environ["CUDA_HOME"] = str(assembled)
    cpp_extension.CUDA_HOME = str(assembled)
    return f"CUDA headers assembled from pip wheels in {assembled}"
