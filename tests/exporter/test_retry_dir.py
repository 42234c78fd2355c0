"""A second pipeline run replaces the first's output only where it verifies more targets."""

from __future__ import annotations

import json
from pathlib import Path

from deploy.exporter.report import ArtifactResult
from deploy.exporter.retry_dir import better_of
from deploy.exporter.verify import Parity


class _Result:
    """What the pipeline returns: artifacts by target, the report and the output folder."""

    def __init__(self, out_dir: Path, verified: dict[str, bool]):
        self.out_dir = out_dir
        self.artifacts = {}
        out_dir.mkdir(parents=True, exist_ok=True)
        for target, ok in verified.items():
            path = out_dir / f"model.{target}"
            path.write_text(f"{target} from {out_dir.name}")
            artifact = ArtifactResult(target, path=path)
            artifact.parity = Parity(cases=1, ok=ok)
            self.artifacts[target] = artifact
        self.report = {"artifacts": {t: a.to_dict() for t, a in self.artifacts.items()}}
        (out_dir / "report.json").write_text(json.dumps(self.report, default=str))


def test_the_second_run_replaces_the_first_when_it_verifies_more(tmp_path):
    out = tmp_path / "model"
    first = _Result(out, {"onnx": False})
    kept = better_of(first, lambda folder: _Result(folder, {"onnx": True, "tflite": True}))
    assert kept is not first and kept.out_dir == out
    assert sorted(p.name for p in out.iterdir()) == ["model.onnx", "model.tflite", "report.json"]
    assert (out / "model.onnx").read_text() == "onnx from .model.retry"
    assert kept.artifacts["onnx"].path == out / "model.onnx"
    report = json.loads((out / "report.json").read_text())
    assert report["artifacts"]["tflite"]["path"] == str(out / "model.tflite")
    assert not (tmp_path / ".model.retry").exists()


def test_the_first_run_stays_when_the_second_is_no_better(tmp_path):
    out = tmp_path / "model"
    first = _Result(out, {"onnx": True, "tflite": False})
    kept = better_of(first, lambda folder: _Result(folder, {"onnx": False, "tflite": True}))
    assert kept is first
    assert (out / "model.onnx").read_text() == "onnx from model"
    assert not (tmp_path / ".model.retry").exists()
