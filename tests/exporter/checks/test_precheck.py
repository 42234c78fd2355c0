"""precheck: what `deploy export` runs before emitting, on the program and graph it already has."""

import pytest

from deploy.exporter.checks import precheck
from deploy.exporter.checks.sources import exported_program, to_onnx

from .conftest import fixture, unsupported


def test_onnx_precheck_on_the_exported_program():
    ep = exported_program(fixture("cummax"), {})
    (report,) = precheck(["onnx", "cuda"], exported_program=ep)
    assert report.target == "onnx" and list(unsupported(report)) == ["aten.cummax.default"]
    error = report.to_error()
    assert error.exit_code == 1 and error.line is not None and "aten.cummax.default" in error.detail


@pytest.fixture(scope="module")
def det_model():
    ep = exported_program(fixture("det"), {})
    return ep, to_onnx(ep)


def test_tflite_precheck_on_the_onnx_graph(det_model):
    ep, model = det_model
    onnx_report, tflite_report = precheck(["onnx", "tflite"], exported_program=ep, onnx_model=model)
    assert onnx_report.ok
    assert list(unsupported(tflite_report)) == ["Det"]


def test_precheck_without_a_graph_checks_nothing_it_cannot():
    assert precheck(["tflite", "cuda"]) == []
