"""The `deploy` command line: exit codes, one-line errors, --json, progress-free output when piped."""

from __future__ import annotations

import json

import pytest

from .conftest import SAMPLES, run_deploy


def _one_error_line(proc) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr
    assert lines and lines[0].startswith("error: ")
    return lines[0]


def test_missing_file_exits_2_with_one_line():
    proc = run_deploy("export", "/no/such/model.py")
    assert proc.returncode == 2
    line = _one_error_line(proc)
    assert "/no/such/model.py" in line and len(proc.stderr.strip().splitlines()) == 1


def test_syntax_error_exits_2_naming_file_and_line(write_model):
    path = write_model("import torch\n\ndef model(:\n    return 1\n")
    proc = run_deploy("export", path)
    assert proc.returncode == 2
    assert f"{path}:3: syntax error" in _one_error_line(proc)
    assert len(proc.stderr.strip().splitlines()) == 1


def test_debug_shows_the_traceback(write_model):
    path = write_model(
        "import torch\ndef model():\n    raise ValueError('boom')\ndef example_inputs():\n    return ()\n"
    )
    proc = run_deploy("export", path, "--debug")
    assert proc.returncode == 2 and "Traceback" in proc.stderr
    plain = run_deploy("export", path)
    assert f"{path.resolve()}:3: model() raised ValueError: boom" in _one_error_line(plain)


def test_json_export_prints_the_report(tmp_path, write_model):
    path = write_model(
        """
        import torch
        def model():
            return torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())
        def example_inputs():
            return (torch.randn(2, 4),)
        """
    )
    proc = run_deploy("export", path, "--out", tmp_path / "out", "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report == json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["artifacts"]["onnx"]["parity"]["ok"] is True
    assert proc.stderr == ""


def test_parity_failure_exits_1_with_the_worst_output(tmp_path, write_model):
    path = write_model(
        """
        import torch
        class Counter(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.calls = 0
            def forward(self, x):
                self.calls += 1
                return x * self.calls
        def model():
            return Counter()
        def example_inputs():
            return (torch.randn(2, 3),)
        """
    )
    proc = run_deploy("export", path, "--out", tmp_path / "out")
    assert proc.returncode == 1
    assert "mismatch" in proc.stdout and "max rel" in proc.stdout and "input shapes [[2, 3]]" in proc.stdout


def test_control_flow_without_rewrite_names_the_if_line(tmp_path):
    proc = run_deploy("export", SAMPLES / "branchy.py", "--no-rewrite", "--out", tmp_path)
    assert proc.returncode == 1
    assert "branchy.py:17:" in _one_error_line(proc)
    assert "if h.mean() > 0" in proc.stderr


def test_unknown_target_exits_2():
    proc = run_deploy("export", SAMPLES / "branchy.py", "--target", "coreml")
    assert proc.returncode == 2 and "unknown target coreml" in _one_error_line(proc)


def test_help_lists_the_commands():
    proc = run_deploy("--help")
    assert proc.returncode == 0
    for command in ("export", "check-ops", "bench", "devices"):
        assert command in proc.stdout


def test_bench_compare_prints_the_dynamic_vs_static_table(tmp_path, write_model):
    path = write_model(
        """
        import torch
        def model():
            return torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Tanh())
        def example_inputs():
            return (torch.randn(2, 8),)
        """
    )
    proc = run_deploy(
        "bench", path, "--compare", "--runs", "3", "--warmup", "1", "--threads", "1", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    for text in ("eager", "onnxruntime", "ai-edge-litert", "p50 ms", "speed-up"):
        assert text in proc.stdout


@pytest.mark.parametrize(
    ("option", "device"), [("--cuda-graph", "cuda"), ("--runner=python", "adb"), ("--timeout=5", "adb")]
)
def test_bench_option_of_another_device_exits_2(option, device):
    """An option for another kind of device is bad input: one line, exit 2, not an internal TypeError."""
    proc = run_deploy("bench", SAMPLES / "branchy.py", option, "--runs", "1")
    assert proc.returncode == 2, proc.stderr
    line = _one_error_line(proc)
    assert option.split("=")[0] in line and device in line and "local" in line


def test_devices_json_lists_this_host():
    proc = run_deploy("devices", "--json")
    assert proc.returncode == 0, proc.stderr
    assert any(d["kind"] == "local" and d.get("cores") for d in json.loads(proc.stdout))
