"""The whole export pipeline through the API: artifacts, report.json, dumps, atomicity, parity failures."""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from torch.export import Dim

import deploy
from deploy.exporter.report import SCHEMA

from ..conftest import SAMPLES


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        return self.fc(y.mean(dim=(2, 3)))


def test_module_export_writes_verified_onnx_and_report(tmp_path):
    torch.manual_seed(0)
    res = deploy.export(
        Small(), (torch.randn(1, 3, 16, 16),), out=tmp_path, dynamic_shapes=({0: Dim("batch", max=16)},)
    )
    art = res.artifacts["onnx"]
    assert art.path == tmp_path / "model.onnx" and art.path.stat().st_size == art.bytes
    assert art.parity.ok and art.parity.cases >= 4
    assert any("(max)" in label for label in art.parity.case_labels)
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["schema"] == SCHEMA and report["ok"] is True
    assert report["inputs"][0]["dynamic_dims"]["0"]["max"] == 16
    assert report["freeze"]["folded_batchnorms"] == 1
    assert "Conv" in report["artifacts"]["onnx"]["ops"]
    assert set(report["artifacts"]["onnx"]["parity"]) >= {"cases", "max_abs", "max_rel", "ok"}
    # the batch dim really is dynamic in the ONNX file (size-1 example, 0/1 trap avoided)
    session = ort.InferenceSession(str(art.path))
    assert session.run(None, {session.get_inputs()[0].name: np.zeros((5, 3, 16, 16), np.float32)})[
        0
    ].shape == (5, 4)


def test_mobilenet_v2_matches_eager_on_fresh_inputs(tmp_path):
    """Issue #2 acceptance, checked independently of deploy's own verifier."""
    res = deploy.export(SAMPLES / "mobilenet_v2.py", out=tmp_path)
    assert res.ok
    from deploy.exporter.loader import load_model_file

    loaded = load_model_file(SAMPLES / "mobilenet_v2.py")
    session = ort.InferenceSession(str(tmp_path / "model.onnx"))
    x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(123))
    with torch.no_grad():
        expected = loaded.module.eval()(x).numpy()
    got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
    assert np.abs(got - expected).max() / np.abs(expected).max() <= 1e-4


def test_dump_graph_env_writes_one_dump_per_stage(tmp_path, monkeypatch):
    monkeypatch.setenv("DEPLOY_DUMP_GRAPH", "1")
    deploy.export(Small(), (torch.randn(1, 3, 8, 8),), out=tmp_path)
    dumps = sorted(p.name for p in (tmp_path / "graphs").iterdir())
    assert dumps == [
        "exported_program.txt",
        "onnx_exported.txt",
        "onnx_simplified.txt",
        "rewritten_source.py",
    ]
    assert "conv" in (tmp_path / "graphs" / "exported_program.txt").read_text().lower()


def test_onnxsim_failure_keeps_unsimplified_graph(tmp_path, monkeypatch):
    import onnxsim

    def broken(*args, **kwargs):
        raise RuntimeError("simplifier exploded")

    monkeypatch.setattr(onnxsim, "simplify", broken)
    res = deploy.export(Small(), (torch.randn(1, 3, 8, 8),), out=tmp_path)
    assert res.ok
    assert any("onnxsim failed (simplifier exploded)" in n for n in res.artifacts["onnx"].notes)
    onnx.checker.check_model(onnx.load(str(tmp_path / "model.onnx")))


def test_interrupted_export_leaves_no_artifact(tmp_path, monkeypatch):
    def interrupted_save(model, path, *args, **kwargs):
        with open(path, "wb") as f:
            f.write(b"half")
        raise KeyboardInterrupt

    monkeypatch.setattr(onnx, "save", interrupted_save)
    with pytest.raises(KeyboardInterrupt):
        deploy.export(Small(), (torch.randn(1, 3, 8, 8),), out=tmp_path)
    assert list(tmp_path.iterdir()) == []  # no model.onnx, no temp file, no report


class Stateful(torch.nn.Module):
    """Eager output changes per call; the exported graph bakes in the first value: a real mismatch."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return x * self.calls


def test_parity_failure_reports_the_worst_output(tmp_path):
    res = deploy.export(Stateful(), (torch.randn(2, 3),), out=tmp_path)
    assert not res.ok
    parity = res.artifacts["onnx"].parity
    assert not parity.ok and parity.worst["max_rel"] > 0.1
    assert parity.worst["case"] and parity.worst["input_shapes"] == [[2, 3]]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["ok"] is False and report["artifacts"]["onnx"]["parity"]["worst"]["output"] == 0


def test_onnx_file_as_input(tmp_path):
    first = deploy.export(Small(), (torch.randn(1, 3, 8, 8),), out=tmp_path / "a")
    res = deploy.export(first.artifacts["onnx"].path, targets=["onnx"], out=tmp_path / "b")
    assert res.ok and (tmp_path / "b" / "model.onnx").is_file()
    assert res.report["verification"]["reference"] == "onnxruntime"


def test_control_flow_sample_lists_rewrites_and_covered_branches(tmp_path):
    res = deploy.export(SAMPLES / "branchy.py", targets=["onnx"], out=tmp_path, dump_graph=True)
    assert res.ok
    rewrites = res.report["rewrites"]
    assert [(r["kind"], r["line"]) for r in rewrites] == [("if->cond", 17)]
    ((site, branches),) = res.report["branches"].items()
    assert site.endswith("branchy.py:17") and branches == {"covered": ["else", "then"], "not_covered": []}
    assert "_deploy_rt.if_stmt" in (tmp_path / "graphs" / "rewritten_source.py").read_text()


def test_when_both_window_readings_fail_the_first_pass_error_is_shown(tmp_path, monkeypatch):
    """A model whose windows were read is exported again with static windows; when that fails
    too, the user sees why the export as Python reads it failed, not the variant's error."""
    from deploy.errors import NotDeployableError
    from deploy.exporter import pipeline
    from deploy.rewriters.window_spans import static_spans_now

    passes = []

    def export_once(loaded, options, progress):
        static = static_spans_now()  # a window was read: the pipeline tries the static reading too
        passes.append(static)
        raise NotDeployableError("static windows failed" if static else "python windows failed")

    monkeypatch.setattr(pipeline, "_export_once", export_once)
    with pytest.raises(NotDeployableError, match="python windows failed"):
        deploy.export(Small(), (torch.randn(1, 3, 8, 8),), out=tmp_path)
    assert passes == [False, True]
