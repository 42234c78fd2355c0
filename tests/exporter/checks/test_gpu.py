"""--target gpu: LiteRT GPU delegate compatibility (the analyzer's checker or its rules)."""

from deploy.exporter.checks import check_ops
from deploy.exporter.checks.gpu import _probe_model, analyzer_checks_gpu, analyzer_text, analyzer_warnings
from deploy.exporter.checks.report import format_where

from .builders import write_tflite
from .conftest import fixture, op_line, unsupported

ANALYZER_REPORT = """Subgraph#0 main(T#0) -> [T#2]
  Op#0 RELU(T#0) -> [T#1]
  Op#1 LOG_SOFTMAX(T#1) -> [T#2]
GPU COMPATIBILITY WARNING: Not supported op LOG_SOFTMAX

GPU COMPATIBILITY WARNING: Subgraph#0 has GPU delegate compatibility issues at nodes 1 with TFLite runtime version 2.x
"""


def test_op_the_gpu_delegate_rejects_is_flagged_at_its_line():
    report = check_ops(fixture("log_softmax"), target="gpu")
    bad = unsupported(report)
    assert list(bad) == ["LOG_SOFTMAX"]
    assert "Not supported op LOG_SOFTMAX" in bad["LOG_SOFTMAX"].reason
    assert bad["LOG_SOFTMAX"].where == [format_where((str(fixture("log_softmax")), op_line("log_softmax")))]


def test_same_kind_of_model_with_a_gpu_op_is_ok():
    assert check_ops(fixture("sign"), target="gpu").ok


def test_tflite_given_directly(tmp_path):
    report = check_ops(
        write_tflite(tmp_path / "m.tflite", ["RELU", "CUSTOM:MyOp", "LOG_SOFTMAX"]), target="gpu"
    )
    assert set(unsupported(report)) == {"CUSTOM:MyOp", "LOG_SOFTMAX"}
    assert check_ops(write_tflite(tmp_path / "ok.tflite", ["RELU", "TANH"]), target="gpu").ok


def test_analyzer_report_parser():
    assert analyzer_warnings(ANALYZER_REPORT) == {(0, 1): "Not supported op LOG_SOFTMAX"}


def test_probe_says_whether_the_analyzer_checks_gpu():
    flagged = bool(analyzer_warnings(analyzer_text(_probe_model())))
    assert analyzer_checks_gpu() is flagged
    report = check_ops(fixture("clean"), target="gpu")
    assert bool(report.notes) is not flagged  # the fallback is always said
