"""--target tflite: ONNX nodes deploy's TFLite lowering lacks; a .tflite given directly is checked by LiteRT."""

from deploy.exporter.checks import check_ops
from deploy.exporter.checks.report import format_where

from .builders import write_tflite
from .conftest import fixture, op_line, unsupported


def test_node_without_a_lowering_is_flagged_at_its_line():
    report = check_ops(fixture("det"), target="tflite")
    bad = unsupported(report)
    assert list(bad) == ["Det"]
    assert bad["Det"].reason and bad["Det"].suggestion
    assert bad["Det"].where == [format_where((str(fixture("det")), op_line("det")))]
    assert {"Conv", "ReduceMean"} <= {row.op for row in report.ops if row.supported}


def test_lowered_model_litert_cannot_prepare_is_flagged():
    # Erf in float64 lowers op by op, but LiteRT has no float64 ABS kernel for the expansion
    report = check_ops(fixture("erf_double"), target="tflite")
    assert list(unsupported(report)) == ["ABS"]
    assert "FLOAT64" in unsupported(report)["ABS"].reason


def test_tflite_given_directly_with_an_unresolvable_custom_op(tmp_path):
    path = write_tflite(tmp_path / "custom.tflite", ["RELU", "CUSTOM:MyOp", "TANH"])
    report = check_ops(path, target="tflite")
    bad = unsupported(report)
    assert list(bad) == ["CUSTOM:MyOp"]
    assert "no kernel" in bad["CUSTOM:MyOp"].reason
    assert bad["CUSTOM:MyOp"].where == []


def test_tflite_given_directly_clean(tmp_path):
    report = check_ops(write_tflite(tmp_path / "clean.tflite", ["RELU", "TANH"]), target="tflite")
    assert report.ok and {row.op for row in report.ops} == {"RELU", "TANH"}
