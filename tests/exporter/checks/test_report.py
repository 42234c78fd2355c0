"""OpsReport: one row per op type, all occurrences counted, unsupported rows first and never without a reason."""

from deploy.errors import UnsupportedOpError
from deploy.exporter.checks.report import Occurrence, build_report, format_where
from deploy.exporter.checks.suggestions import suggester


def test_rows_group_occurrences_and_list_unsupported_first():
    found = [
        Occurrence("Relu", True, where=("/m/model.py", 3)),
        Occurrence("Erf", True, where=("/m/model.py", 5)),
        Occurrence("Erf", False, "no float64 kernel", ("/m/model.py", 7)),
        Occurrence("Erf", False, "no float64 kernel", ("/m/model.py", 7)),
        Occurrence("Relu", True, where=("/m/model.py", 4)),
    ]
    report = build_report("onnx", found, suggester("onnx"))
    assert [row.op for row in report.ops] == ["Erf", "Relu"]
    erf, relu = report.ops
    assert (erf.count, erf.supported) == (3, False)
    assert erf.reason == "2 of 3: no float64 kernel"
    assert erf.where == ["/m/model.py:7"]  # the failing occurrences, each line once
    assert erf.suggestion
    assert (relu.count, relu.supported, relu.reason, relu.suggestion) == (2, True, "", "")
    assert relu.where == ["/m/model.py:3", "/m/model.py:4"]
    assert report.ok is False


def test_to_dict_has_the_documented_keys_and_ok():
    report = build_report("tflite", [Occurrence("Conv", True)])
    data = report.to_dict()
    assert data == {
        "target": "tflite",
        "ok": True,
        "ops": [{"op": "Conv", "count": 1, "supported": True, "reason": "", "where": [], "suggestion": ""}],
    }


def test_unsupported_row_always_has_a_reason_and_suggestion():
    report = build_report("gpu", [Occurrence("FOO", False)], suggester("gpu"))
    assert report.ops[0].reason == "not supported"
    assert report.ops[0].suggestion


def test_to_error_names_first_source_line_and_carries_the_table():
    report = build_report(
        "tflite", [Occurrence("CumSum", False, "no lowering", ("/m/model.py", 9))], suggester("tflite")
    )
    error = report.to_error()
    assert isinstance(error, UnsupportedOpError) and error.exit_code == 1
    assert (error.file, error.line) == ("/m/model.py", 9)
    assert "CumSum" in str(error) and "no lowering" in error.detail


def test_a_model_the_runtime_cannot_load_says_why_in_the_error():
    reason = "onnxruntime cannot load the graph: Subgraph output (y) is an outer scope value"
    report = build_report("onnx", [Occurrence("(model)", False, reason)], suggester("onnx"))
    error = report.to_error()
    assert isinstance(error, UnsupportedOpError) and error.exit_code == 1
    assert reason in str(error) and "(model)" in error.detail


def test_where_is_relative_below_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert format_where((str(tmp_path / "pkg" / "model.py"), 4)) == "pkg/model.py:4"
    assert format_where(("/elsewhere/model.py", 4)) == "/elsewhere/model.py:4"
