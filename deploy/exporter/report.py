"""report.json (schema 1): what was exported, how, and how well each artifact matches eager."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from deploy import __version__
from deploy.atomic import write_text
from deploy.exporter.verify import Parity

SCHEMA = 1


@dataclass
class ArtifactResult:
    """One emitted artifact and its verification."""

    target: str
    path: Path | None = None
    bytes: int = 0
    ops: dict[str, int] = field(default_factory=dict)
    export_seconds: float = 0.0
    parity: Parity | None = None
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and self.parity is not None and self.parity.ok

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path) if self.path else None,
            "bytes": self.bytes,
            "ops": self.ops,
            "export_seconds": self.export_seconds,
            "parity": self.parity.to_dict() if self.parity else None,
            "ok": self.ok,
            "notes": self.notes,
            "errors": self.errors,
        }


def input_entries(names: list[str], example: tuple, dims: list) -> list[dict[str, Any]]:
    """name, example shape, dtype and dynamic dims (with their ranges) of each input."""
    entries = []
    for index, tensor in enumerate(example):
        dynamic = {
            str(d.dim): {"symbol": d.symbol, "min": d.low, "max": d.high}
            for d in dims
            if d.input_index == index
        }
        name = names[index] if index < len(names) else f"input_{index}"
        entries.append(
            {
                "name": name,
                "shape": list(tensor.shape),
                "dtype": str(tensor.dtype).replace("torch.", ""),
                "dynamic_dims": dynamic,
            }
        )
    return entries


def build_report(
    *,
    model: dict[str, Any],
    inputs: list[dict[str, Any]],
    artifacts: dict[str, ArtifactResult],
    rewrites: list[Any] = (),
    extra: dict[str, Any] | None = None,
    errors: list[str] = (),
) -> dict[str, Any]:
    rewrites_out = [asdict(r) if hasattr(r, "__dataclass_fields__") else dict(r) for r in rewrites]
    report = {
        "schema": SCHEMA,
        "deploy_version": __version__,
        "model": model,
        "inputs": inputs,
        "rewrites": rewrites_out,
        "artifacts": {target: result.to_dict() for target, result in artifacts.items()},
        "errors": list(errors) + [e for a in artifacts.values() for e in a.errors],
    }
    report.update(extra or {})
    report["ok"] = not report["errors"] and all(a.ok for a in artifacts.values())
    return report


def write_report(report: dict[str, Any], out_dir: Path) -> Path:
    return write_text(out_dir / "report.json", json.dumps(report, indent=2, default=str) + "\n")
