"""--target nnapi / coreml: onnxruntime's mobile usability checker, per node."""

from deploy.exporter.checks import check_ops
from deploy.exporter.checks.report import format_where

from .builders import write_onnx
from .conftest import fixture, op_line, unsupported


def test_op_missing_from_nnapi_is_flagged_and_coreml_runs_it():
    nnapi = check_ops(fixture("erf"), target="nnapi")
    bad = unsupported(nnapi)
    assert list(bad) == ["Erf"]
    assert "NNAPI supported-op list" in bad["Erf"].reason
    assert bad["Erf"].where == [format_where((str(fixture("erf")), op_line("erf")))]
    coreml = check_ops(fixture("erf"), target="coreml")
    assert coreml.ok and any(row.op == "Erf" for row in coreml.ops)


def test_onnx_given_directly(tmp_path):
    path = write_onnx(tmp_path / "chain.onnx", ["Relu", "Sign", "Sigmoid"])
    report = check_ops(path, target="coreml")
    assert list(unsupported(report)) == ["Sign"]
    assert unsupported(report)["Sign"].where == []


def test_dynamic_shapes_are_reported_as_such(tmp_path):
    path = write_onnx(tmp_path / "dyn.onnx", ["Relu", "Sigmoid"], shape=("N", 4, 8, 8))
    report = check_ops(path, target="nnapi")
    assert not report.ok
    assert all("dynamic" in row.reason for row in report.unsupported)
