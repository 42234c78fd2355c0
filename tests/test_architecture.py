"""The design card's import rules: cli -> api -> {exporter, devices, runtimes}; exporter -> {rewriters,
runtimes}; devices -> runtimes; nothing imports cli/api from below; rewriters know no backend."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "deploy"

# subpackage -> deploy.* subpackages it must never import
FORBIDDEN = {
    "exporter": {"cli", "api", "devices"},
    "rewriters": {"cli", "api", "exporter", "runtimes", "devices"},
    "runtimes": {"cli", "api", "exporter", "rewriters", "devices"},
    "devices": {"cli", "api", "exporter", "rewriters"},
}


def _deploy_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "deploy" and len(parts) > 1:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("subpackage", sorted(FORBIDDEN))
def test_imports_flow_one_way(subpackage):
    offenders = []
    for path in sorted((PACKAGE / subpackage).rglob("*.py")):
        bad = _deploy_imports(path) & FORBIDDEN[subpackage]
        if bad:
            offenders.append(f"{path.relative_to(PACKAGE)} imports {sorted(bad)}")
    assert not offenders, "\n".join(offenders)


def test_cuda_runtime_needs_only_torch():
    """The GPU machine has torch but no onnx/litert: the CUDA path must not import them."""
    for path in (PACKAGE / "runtimes" / "cuda").rglob("*.py"):
        source = path.read_text()
        for module in ("import onnx", "from onnx", "ai_edge_litert", "onnxruntime"):
            assert module not in source, f"{path.name} uses {module}"
