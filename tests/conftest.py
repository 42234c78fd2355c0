"""Shared fixtures: the repo paths, a CLI runner, and small model files written per test."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


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
