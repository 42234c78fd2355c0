"""What adb and the device-side tools print, parsed: adb devices -l, device info, benchmark_model logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from deploy.devices.adb.client import parse_devices
from deploy.devices.adb.info import parse_info
from deploy.devices.adb.runners import choose_runner, parse_benchmark_model, parse_python_output
from deploy.errors import DeviceError

# benchmark_model's log format (tensorflow/lite/tools/benchmark), recent build with percentiles
BENCHMARK_MODEL_LOG = """\
INFO: STARTING!
INFO: Log parameter values verbosely: [0]
INFO: Graph: [/data/local/tmp/deploy-1a2b3c4d/model.tflite]
INFO: Loaded model /data/local/tmp/deploy-1a2b3c4d/model.tflite
INFO: The input model file size (MB): 13.9786
INFO: Initialized session in 119.515ms.
INFO: Running benchmark for at least 5 iterations and at least 0 seconds but terminate if exceeding 150 seconds.
INFO: count=5 first=87112 curr=51629 min=51629 max=87112 avg=58147.4 std=11478 p5=51629 median=51962 p95=87112

INFO: Running benchmark for at least 50 iterations and at least 0 seconds but terminate if exceeding 150 seconds.
INFO: count=50 first=52162 curr=49785 min=49088 max=68610 avg=51743.2 std=2716 p5=49620 median=50891 p95=58628

INFO: Inference timings in us: Init: 119515, First inference: 87112, Warmup (avg): 58147.4, Inference (avg): 51743.2
INFO: Note: as the benchmark tool itself affects memory footprint, the following is only APPROXIMATE to the actual memory footprint of the model at runtime. Take the information at your discretion.
INFO: Memory footprint delta from the start of the tool (MB): init=55.4961 overall=57.125
"""

OLD_LOG = """\
count=9 first=2143 curr=2101 min=2056 max=2656 avg=2177.1 std=124
Inference timings in us: Init: 896, First inference: 2300, Warmup (avg): 2331.42, Inference (avg): 2177.1
"""


def test_benchmark_model_log_with_percentiles():
    data = parse_benchmark_model(BENCHMARK_MODEL_LOG)
    assert data["init_ms"] == pytest.approx(119.515) and data["first_ms"] == pytest.approx(87.112)
    assert data["count"] == 50  # the measured runs, not the warm-up stat line
    assert data["median_ms"] == pytest.approx(50.891) and data["p95_ms"] == pytest.approx(58.628)
    assert data["min_ms"] == pytest.approx(49.088) and data["std_ms"] == pytest.approx(2.716)
    assert data["memory_delta_mb"] == pytest.approx(57.125)


def test_benchmark_model_log_without_percentiles():
    data = parse_benchmark_model(OLD_LOG)
    assert data["avg_ms"] == pytest.approx(2.1771) and "median_ms" not in data and data["count"] == 9


def test_benchmark_model_log_without_timings_is_an_error():
    with pytest.raises(DeviceError, match="no 'Inference timings in us' line"):
        parse_benchmark_model("INFO: STARTING!\nERROR: Failed to mmap model /x.tflite\n")


def test_python_runner_output():
    text = 'noise\n__deploy_result__ {"init_ms": 1.5, "first_ms": 2, "samples_ms": [1, 2], "runtime": "onnxruntime"}\n'
    assert parse_python_output(text)["samples_ms"] == [1, 2]
    with pytest.raises(DeviceError, match="no result line"):
        parse_python_output("Traceback ...\n")
    with pytest.raises(DeviceError, match="no samples"):
        parse_python_output('__deploy_result__ {"samples_ms": []}')


def test_adb_devices_listing():
    text = """List of devices attached
emulator-5554          device product:sdk_gphone64 model:sdk_gphone64_x86_64 device:emu64x transport_id:1
R5CT1234567            unauthorized usb:1-1 transport_id:2
0123456789ABCDEF       no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:1-2
192.168.1.20:5555      offline transport_id:4

"""
    rows = parse_devices(text)
    assert [r["state"] for r in rows] == ["device", "unauthorized", "no permissions", "offline"]
    assert rows[0]["model"] == "sdk_gphone64_x86_64" and rows[0]["transport_id"] == "1"
    assert rows[3]["serial"] == "192.168.1.20:5555"


def test_phone_info_from_getprop():
    text = "\n".join(
        [
            "prop.ro.product.model=SM-S918B",
            "prop.ro.product.manufacturer=samsung",
            "prop.ro.board.platform=kalama",
            "prop.ro.soc.model=SM8550",
            "prop.ro.build.version.release=13",
            "prop.ro.build.version.sdk=33",
            "uname=Linux 5.15.94-android13 aarch64",
            "nproc=8",
            "governor=schedutil",
            "thermal.cpu-0-0-usr=41200",
            "thermal.battery=30100",
        ]
    )
    info = parse_info(text, "R5CT1")
    assert (info.model, info.soc, info.os, info.cores) == (
        "samsung SM-S918B",
        "SM8550 (kalama)",
        "Android 13 (API 33)",
        8,
    )
    assert info.extra["governor"] == "schedutil" and info.extra["max_temp_c"] == pytest.approx(41.2)


def test_board_info_from_device_tree_and_cpuinfo():
    text = "uname=Linux 6.1.0-rpi7 aarch64\nnproc=4\ndtmodel=Raspberry Pi 5 Model B Rev 1.0\n"
    text += "cpuinfo.Hardware\t: BCM2712\nosrelease=Debian GNU/Linux 12 (bookworm)\ngovernor=\n"
    info = parse_info(text, "board")
    assert (info.model, info.soc, info.cores) == ("Raspberry Pi 5 Model B Rev 1.0", "BCM2712", 4)
    assert (
        info.os == "Debian GNU/Linux 12 (bookworm) (Linux 6.1.0-rpi7 aarch64)"
        and "governor" not in info.extra
    )


def test_runner_choice():
    with_python = {
        "python3": "/usr/bin/python3",
        "python.onnxruntime": "1",
        "python.ai_edge_litert.interpreter": "1",
    }
    assert choose_runner(with_python, "onnx", wanted="auto", runner_binary=None).name == "python"
    both = {**with_python, "benchmark_model": "/data/local/tmp/benchmark_model"}
    assert (
        choose_runner(both, "tflite", wanted="auto", runner_binary=None).binary
        == "/data/local/tmp/benchmark_model"
    )
    assert choose_runner(both, "tflite", wanted="python", runner_binary=None).name == "python"
    pushed = choose_runner({}, "tflite", wanted="auto", runner_binary=Path("bm"))
    assert pushed.push_binary == Path("bm")
    with pytest.raises(DeviceError, match="python3 without onnxruntime"):
        choose_runner({"python3": "/usr/bin/python3"}, "onnx", wanted="auto", runner_binary=None)
    with pytest.raises(DeviceError, match="benchmark_model runs .tflite models only"):
        choose_runner(both, "onnx", wanted="benchmark_model", runner_binary=None)
