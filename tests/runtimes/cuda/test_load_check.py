"""A package that compiles but crashes its loader: found in a child process, rebuilt with another compiler.

The crashing toolchain is emulated (the other side, not deploy): a g++ wrapper that adds a constructor
raising SIGSEGV to every translation unit, so its shared libraries kill the process that loads them, as the
packages built with the H200 image's /opt/gcc/bin/g++ did.
"""

from __future__ import annotations

import shutil
import signal
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

from deploy.errors import NotDeployableError
from deploy.runtimes.cuda import emit
from deploy.runtimes.cuda.load_check import known_to_crash, load_problem, other_compilers

from .conftest import small_program

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ for AOTInductor")

CRASH = "#include <signal.h>\n__attribute__((constructor)) static void deploy_test_crash(void) { raise(SIGSEGV); }\n"


@pytest.fixture
def crashing_cxx(tmp_path, monkeypatch) -> Iterator[str]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # where crashing compilers are remembered
    header = tmp_path / "crash_on_load.h"
    header.write_text(CRASH)
    wrapper = tmp_path / "bin" / "crashing-g++"
    wrapper.parent.mkdir()
    # Only C++ sources get the header (Inductor also assembles the weights with the same compiler).
    wrapper.write_text(
        "#!/bin/sh\n"
        f'case "$*" in *.cpp*) exec {shutil.which("g++")} -include {header} "$@";; esac\n'
        f'exec {shutil.which("g++")} "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    with torch._inductor.config.patch({"cpp.cxx": (None, str(wrapper))}):
        yield str(wrapper)


def test_other_compilers_leave_out_the_current_one():
    gxx = shutil.which("g++")
    assert all(Path(c).resolve() != Path(gxx).resolve() for c in other_compilers(gxx))
    assert gxx in other_compilers("/nonexistent/g++")


def test_loader_crash_is_reported_then_rebuilt_with_another_compiler(tmp_path, crashing_cxx):
    model, program = small_program()
    out = tmp_path / "out" / "model.cpu.pt2"
    info = emit.emit_pt2(program, out, device="cpu", configs={"force_disable_caches": True})
    note = next(n for n in info["notes"] if "did not load" in n)
    assert crashing_cxx in note and "SIGSEGV" in note and f"rebuilt with {shutil.which('g++')}" in note
    assert load_problem(out) is None
    x = torch.randn(3, 3, 16, 16)
    with torch.no_grad():
        torch.testing.assert_close(
            torch._inductor.aoti_load_package(str(out))(x), model(x), rtol=1e-4, atol=1e-6
        )
    assert [p.name for p in out.parent.iterdir()] == ["model.cpu.pt2"]
    # Remembered: the next package is built with the working compiler straight away, and loads.
    assert known_to_crash(crashing_cxx)
    again = emit.emit_pt2(program, tmp_path / "again" / "model.cpu.pt2", device="cpu")
    assert (
        f"built with {shutil.which('g++')}: packages built here with {crashing_cxx} crashed when loaded"
        in again["notes"]
    )
    assert not any("did not load" in n for n in again["notes"])


def test_no_loadable_build_is_refused_and_nothing_is_left(tmp_path, crashing_cxx, monkeypatch):
    monkeypatch.setattr(emit, "usable_compilers", lambda current: [])
    _, program = small_program()
    out = tmp_path / "out" / "model.cpu.pt2"
    with pytest.raises(NotDeployableError, match="compiles but cannot be loaded") as caught:
        emit.emit_pt2(program, out, device="cpu", configs={"force_disable_caches": True})
    assert signal.Signals.SIGSEGV.name in str(caught.value) and crashing_cxx in str(caught.value)
    assert list(out.parent.iterdir()) == []
