"""Load and run a freshly built .pt2 in a child process before it is kept; find another compiler if it crashes.

A package can compile cleanly and still crash the process that loads it. Seen on the lent H200 image
(docs/BENCHMARKS.md): with CXX=/opt/gcc/bin/g++ (a wrapper script around g++ 13.3), every package, torch's
own included, crashed with SIGSEGV when torch created the model container (CPU and CUDA packages alike),
while its archive read and its shared library's dlopen were fine; the same packages built with /usr/bin/g++
loaded and matched eager. A crash cannot be caught in the process that hits it, so the first load happens in
a child: ``load_problem`` says how the child ended (None when it loaded and ran the example inputs).
A compiler whose package crashed is remembered per torch version (``$XDG_CACHE_HOME/deploy``), so later
exports on the machine build with another compiler straight away instead of compiling twice.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import deploy
from deploy.atomic import write_text

# Run in the child: load through deploy's own session (the same path verification and bench use) and run
# the package once on inputs of the export's example shapes.
CHILD = (
    "import sys\n"
    "from deploy.runtimes.cuda.session import load\n"
    "session = load(sys.argv[1])\n"
    "session.run(session.sample_inputs())\n"
    "print('pt2 load ok')\n"
)
TIMEOUT_S = 300.0


CRASH = "the loading process was killed by"


def _describe(proc: subprocess.CompletedProcess) -> str | None:
    if proc.returncode == 0 and "pt2 load ok" in proc.stdout:
        return None
    if proc.returncode < 0:
        return f"{CRASH} {signal.Signals(-proc.returncode).name}"
    lines = [ln.strip() for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()]
    return f"loading failed: {lines[-1] if lines else f'exit status {proc.returncode}'}"


def load_problem(package: Path, timeout: float = TIMEOUT_S) -> str | None:
    """Load ``package`` and run it once in a child process: None if that worked, else how it ended."""
    # torch loads only names ending in .pt2; the package may still be under its temporary name.
    with tempfile.TemporaryDirectory(prefix=".pt2check_", dir=package.parent) as folder:
        probe = Path(folder) / "model.pt2"
        try:
            os.link(package, probe)
        except OSError:
            shutil.copyfile(package, probe)
        root = str(Path(deploy.__file__).resolve().parent.parent)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])),
        }
        try:
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(probe)],
                capture_output=True,
                text=True,
                env=env,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return f"loading did not finish within {timeout:.0f} s"
    return _describe(proc)


def other_compilers(current: str | None) -> list[str]:
    """C++ compilers on this machine other than ``current`` (by resolved path), the usual names first."""
    seen = {os.path.realpath(current)} if current else set()
    found = []
    for name in ("g++", "c++", "/usr/bin/g++", "/usr/bin/c++", "clang++"):
        path = shutil.which(name)
        if path and os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            found.append(path)
    return found


def _verdicts() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "deploy" / "aoti_compilers.json"


def _key(compiler: str) -> str:
    import torch

    return f"torch {torch.__version__} | {os.path.realpath(shutil.which(compiler) or compiler)}"


def _read_verdicts() -> dict:
    try:
        return json.loads(_verdicts().read_text())
    except (OSError, ValueError):
        return {}


def _crashed() -> set[str]:
    return {key for key, verdict in _read_verdicts().items() if verdict == "crashes at load"}


def known_to_crash(compiler: str) -> bool:
    """Did a package built with ``compiler`` crash its loader here before (same torch)?"""
    return _key(compiler) in _crashed()


def usable_compilers(current: str) -> list[str]:
    """The other compilers (other_compilers) less those known to crash their loader here."""
    crashed = _crashed()
    return [c for c in other_compilers(current) if _key(c) not in crashed]


def remember(compiler: str, problem: str) -> None:
    """Record a compiler whose package crashed its loader (only crashes: other failures may be the model's)."""
    if not problem.startswith(CRASH):
        return
    verdicts = {**_read_verdicts(), _key(compiler): "crashes at load"}
    try:
        write_text(_verdicts(), json.dumps(verdicts, indent=1, sort_keys=True))
    except OSError:
        pass  # a read-only home only costs the second compile next time
