"""Shared fixtures for the check-ops tests: the op fixture models and their line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "ops"


def fixture(name: str) -> Path:
    return FIXTURES / f"{name}.py"


def op_line(name: str) -> int:
    """The first code line under the '# the op under test:' marker in a fixture model."""
    lines = fixture(name).read_text().splitlines()
    start = next(i for i, text in enumerate(lines, 1) if "the op under test" in text)
    return next(i for i, text in enumerate(lines, 1) if i > start and not text.strip().startswith("#"))


def unsupported(report) -> dict:
    return {row.op: row for row in report.ops if not row.supported}


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES
