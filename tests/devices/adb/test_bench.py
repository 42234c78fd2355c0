"""``bench`` over adb on emulated devices: runner choice, parsing, cleanup, and devices that fail mid-run."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from deploy.devices.adb import make_device
from deploy.errors import DeviceError
from tests.devices.conftest import fake_benchmark_model_script


def _work_dirs(device) -> list[str]:
    return [p.name for p in (device.sandbox.root / "data/local/tmp").glob("deploy-*")]


def test_python_runner_on_a_board_times_an_onnx(emulator, models):
    board = emulator("board")
    result = make_device(board.serial).bench(models["onnx"], runs=20, warmup=2, threads=1)
    assert result.runner == "python" and result.runtime == "onnxruntime"
    assert len(result.samples_ms) == 20 and all(s > 0 for s in result.samples_ms)
    assert 0 < result.p50_ms <= result.p90_ms <= result.p99_ms
    assert result.init_ms > 0 and result.first_ms > 0 and result.peak_rss_mb > 10
    assert result.device.model == "Raspberry Pi 4 Model B Rev 1.4"
    extra = result.device.extra
    assert extra["governor"] == extra["governor_after"] == "schedutil"
    assert extra["max_temp_c"] == extra["max_temp_c_after"] == 41.5
    assert result.to_dict()["samples_ms"] and result.threads == 1
    assert _work_dirs(board) == []  # cleaned up
    assert any("(v2).onnx" in c for c in board.commands)  # the awkward name went through, quoted


def test_python_runner_times_a_tflite_on_a_phone_with_python(emulator, models):
    phone = emulator("phone")
    phone.sandbox.add_tool("python3", f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    result = make_device(phone.serial).bench(models["tflite"], runs=15, warmup=2, threads=1)
    assert result.runner == "python" and result.runtime == "ai-edge-litert"
    assert result.device.model == "Google Pixel 7" and result.device.os == "Android 14 (API 34)"
    assert 0 < result.p50_ms <= result.p90_ms <= result.p99_ms


def test_benchmark_model_on_the_device_is_preferred_for_tflite(emulator, models):
    phone = emulator("phone")
    phone.sandbox.add_tool("benchmark_model", fake_benchmark_model_script())
    result = make_device(phone.serial).bench(models["tflite"], runs=12, warmup=3, threads=2)
    assert result.runner == "benchmark_model"
    data = result.to_dict()
    assert data["p50_ms"] > 0 and data["p90_ms"] is None and data["samples_ms"] == []
    assert data["summary_ms"]["min"] <= data["p50_ms"] <= data["summary_ms"]["max"]
    assert result.init_ms > 0 and result.first_ms > 0 and result.peak_rss_mb > 0
    assert any("--num_threads=2" in c and "--num_runs=12" in c for c in phone.commands)
    assert _work_dirs(phone) == []


def test_runner_binary_is_pushed_when_the_device_has_none(emulator, models, tmp_path):
    phone = emulator("phone")
    binary = tmp_path / "benchmark_model"
    binary.write_text(fake_benchmark_model_script())
    device = make_device(phone.serial)
    result = device.bench(models["tflite"], runs=5, warmup=1, runner_binary=binary)
    assert result.runner == "benchmark_model" and result.mean_ms > 0
    assert any("chmod 755" in c for c in phone.commands)


def test_no_runner_is_a_clear_error(emulator, models):
    phone = emulator("phone")
    with pytest.raises(DeviceError, match=r"no runner on the device for a \.onnx \(no python3"):
        make_device(phone.serial).bench(models["onnx"], runs=3, warmup=0)
    assert _work_dirs(phone) == []


def test_runner_failure_is_an_error_not_a_result(emulator, models, tmp_path):
    phone = emulator("phone")
    phone.sandbox.add_tool("benchmark_model", "#!/bin/sh\necho 'ERROR: Failed to mmap model' >&2\nexit 1\n")
    with pytest.raises(DeviceError, match=r"benchmark_model runner failed .*exit 1.*Failed to mmap"):
        make_device(phone.serial).bench(models["tflite"], runs=3, warmup=1)


def test_device_killed_mid_run_gives_an_error_within_the_timeout(emulator, models):
    board = emulator("board")
    device = make_device(board.serial)
    device.timeout_s = 60

    def kill_once_running() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any("bench_runner.py" in c for c in board.commands):
            time.sleep(0.05)
        time.sleep(0.5)
        board.kill()

    killer = threading.Thread(target=kill_once_running)
    killer.start()
    start = time.monotonic()
    with pytest.raises(DeviceError, match="lost during the benchmark run: no end marker, no result"):
        device.bench(models["onnx"], runs=1_000_000, warmup=0)
    killer.join()
    assert time.monotonic() - start < device.timeout_s


def test_device_that_hangs_mid_run_times_out(emulator, models):
    phone = emulator("phone")
    device = make_device(phone.serial)
    device.timeout_s = 4
    phone.sandbox.add_tool("benchmark_model", "#!/bin/sh\necho 'INFO: STARTING!'\nsleep 60\n")
    with pytest.raises(DeviceError, match="adb shell timed out after 4s"):
        device.bench(models["tflite"], runs=3, warmup=0)
