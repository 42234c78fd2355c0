"""Bad input is an InputError (exit 2), raised before any work: missing file, unknown target, wrong suffix."""

import pytest

from deploy.errors import InputError
from deploy.exporter.checks import check_ops

from .builders import write_onnx, write_tflite
from .conftest import fixture


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        check_ops(tmp_path / "nothere.py", target="onnx")


def test_unknown_target():
    with pytest.raises(InputError, match="unknown check-ops target"):
        check_ops(fixture("clean"), target="tpu")


@pytest.mark.parametrize("target", ["onnx", "nnapi", "coreml"])
def test_tflite_for_an_onnx_runtime_target(tmp_path, target):
    path = write_tflite(tmp_path / "m.tflite", ["RELU"])
    with pytest.raises(InputError, match="not a .tflite"):
        check_ops(path, target=target)


def test_unknown_suffix(tmp_path):
    path = tmp_path / "model.txt"
    path.write_text("x")
    with pytest.raises(InputError, match="expected a model.py"):
        check_ops(path, target="onnx")


def test_broken_files(tmp_path):
    (tmp_path / "bad.onnx").write_bytes(b"not a protobuf at all \xff\xff")
    (tmp_path / "bad.tflite").write_bytes(b"garbage!")
    with pytest.raises(InputError):
        check_ops(tmp_path / "bad.onnx", target="onnx")
    with pytest.raises(InputError, match="TFL3"):
        check_ops(tmp_path / "bad.tflite", target="xnnpack")


def test_onnx_target_on_an_onnx_file(tmp_path):
    assert check_ops(write_onnx(tmp_path / "ok.onnx", ["Relu"]), target="onnx").ok


def test_an_nn_module_with_example_inputs():
    import torch

    module = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.LogSoftmax(dim=1))
    report = check_ops(module, target="nnapi", example_inputs=(torch.randn(2, 4),))
    assert [row.op for row in report.unsupported] == ["LogSoftmax"]
    with pytest.raises(InputError, match="example_inputs"):
        check_ops(module, target="onnx")
