"""--target xnnpack: operators the real interpreter's XNNPACK delegate leaves to the built-in kernels."""

from deploy.exporter.checks import check_ops
from deploy.exporter.checks.report import format_where
from deploy.exporter.checks.xnnpack import _delegated

from .builders import write_tflite
from .conftest import fixture, op_line, unsupported


def test_op_xnnpack_does_not_take_is_flagged_at_its_line():
    report = check_ops(fixture("sign"), target="xnnpack")
    bad = unsupported(report)
    assert list(bad) == ["SIGN"]
    assert "built-in CPU kernel" in bad["SIGN"].reason
    assert bad["SIGN"].where == [format_where((str(fixture("sign")), op_line("sign")))]
    assert {row.op for row in report.ops if row.supported} >= {"CONV_2D", "MEAN"}


def test_tflite_given_directly_has_no_source_lines(tmp_path):
    report = check_ops(write_tflite(tmp_path / "sign.tflite", ["RELU", "SIGN", "TANH"]), target="xnnpack")
    assert list(unsupported(report)) == ["SIGN"]
    assert all(row.where == [] for row in report.ops)


def test_delegate_partitions_are_walked_back_to_their_inputs():
    # ops 0 -> 1 -> 2 (tensors 0..3); one DELEGATE took ops 0 and 2 around a fallback op 1
    details = [
        {"index": 0, "op_name": "RELU", "inputs": [0], "outputs": [1]},
        {"index": 1, "op_name": "SIGN", "inputs": [1], "outputs": [2]},
        {"index": 2, "op_name": "TANH", "inputs": [2], "outputs": [3]},
        {"index": 3, "op_name": "DELEGATE", "inputs": [0], "outputs": [1]},
        {"index": 4, "op_name": "DELEGATE", "inputs": [2], "outputs": [3]},
    ]
    assert _delegated(details, 3) == {0, 2}


def test_lines_survive_batchnorm_folding():
    # freeze folds conv+bn by tracing the model with torch.fx, which drops the user's frames
    report = check_ops(fixture("bn_sign"), target="xnnpack")
    assert list(unsupported(report)) == ["SIGN"]
    assert unsupported(report)["SIGN"].where == [format_where((str(fixture("bn_sign")), op_line("bn_sign")))]
    conv = next(row for row in report.ops if row.op == "CONV_2D")  # conv+bn+relu fused: the relu line
    assert conv.where == [format_where((str(fixture("bn_sign")), op_line("bn_sign") - 2))]
