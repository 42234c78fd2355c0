"""Shared fixtures: the repo paths, a CLI runner, and small model files written per test."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"

if os.environ.get("PYTEST_XDIST_WORKER"):
    # `make test` runs one worker per core: one thread each, not every worker on every core
    torch.set_num_threads(1)


@pytest.fixture
def write_model(tmp_path):
    """Write a model.py from source text and return its path."""

    def write(source: str, name: str = "model.py") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source))
        return path

    return write


def run_deploy(*args: str, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    """Run the real `deploy` console entry point in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "deploy.cli", *map(str, args)],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
