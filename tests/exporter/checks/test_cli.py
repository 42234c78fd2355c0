"""`deploy check-ops` through the real console entry point: JSON on stdout and the exit codes 0/1/2."""

import json

from tests.conftest import run_deploy

from .builders import write_tflite
from .conftest import fixture, op_line


def test_one_unsupported_op_exits_1_with_its_line():
    result = run_deploy("check-ops", fixture("det"), "--target", "tflite", "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["target"] == "tflite" and data["ok"] is False
    bad = [row for row in data["ops"] if not row["supported"]]
    assert [row["op"] for row in bad] == ["Det"]
    assert bad[0]["where"][0].endswith(f"det.py:{op_line('det')}")
    assert bad[0]["reason"] and bad[0]["suggestion"]


def test_same_model_on_a_target_that_runs_it_exits_0():
    result = run_deploy("check-ops", fixture("det"), "--target", "onnx", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["ok"] is True and all(row["supported"] for row in data["ops"])


def test_tflite_given_directly_table_output(tmp_path):
    path = write_tflite(tmp_path / "m.tflite", ["RELU", "SIGN"])
    result = run_deploy("check-ops", path, "--target", "xnnpack")
    assert result.returncode == 1
    assert "SIGN" in result.stdout and "NOT SUPPORTED" in result.stdout


def test_bad_input_exits_2(tmp_path):
    path = write_tflite(tmp_path / "m.tflite", ["RELU"])
    result = run_deploy("check-ops", path, "--target", "nnapi", "--json")
    assert result.returncode == 2
    assert "m.tflite" in result.stderr and result.stdout == ""
