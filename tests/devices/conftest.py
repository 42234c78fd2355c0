"""Fixtures for device tests: tiny models, and emulated adb devices reached with the real adb client.

Each test that uses ``adb_server`` gets its own adb server on a free port (ANDROID_ADB_SERVER_PORT),
with ADB_LOCAL_TRANSPORT_MAX_PORT=5553 so it does not probe emulator ports, killed at teardown.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.device_sandbox import DeviceSandbox
from tests.support.fake_adbd import FakeAdbd
from tests.support.tiny_models import write_onnx, write_tflite

FAKE_BENCHMARK_MODEL = Path(__file__).resolve().parents[1] / "support" / "fake_benchmark_model.py"


@pytest.fixture(scope="session")
def models(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("models")
    return {
        "onnx": write_onnx(folder / "tiny conv's (v2).onnx"),
        "tflite": write_tflite(folder / "fc.tflite"),
    }


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def adb_server(monkeypatch):
    """An isolated adb server for this test; yields a function running the adb client against it."""
    adb = shutil.which("adb")
    if adb is None:
        pytest.skip("adb is not installed (apt-get install adb)")
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(_free_port()))
    monkeypatch.setenv("ADB_LOCAL_TRANSPORT_MAX_PORT", "5553")
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)
    monkeypatch.delenv("ADB", raising=False)

    def run(*args: str, timeout: float = 20) -> subprocess.CompletedProcess:
        return subprocess.run(
            [adb, *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
        )

    run("start-server")
    yield run
    run("kill-server")


def fake_benchmark_model_script() -> str:
    return f"#!{sys.executable}\n" + FAKE_BENCHMARK_MODEL.read_text()


@pytest.fixture
def emulator(adb_server, tmp_path):
    """Factory: start an emulated device (phone or board), optionally ``adb connect`` it; all killed at teardown."""
    started: list[FakeAdbd] = []

    def start(
        kind: str = "phone", *, connect: bool = True, unauthorized: bool = False, **sandbox
    ) -> FakeAdbd:
        root = tmp_path / f"{kind}{len(started)}"
        device = FakeAdbd(DeviceSandbox(root, kind=kind, **sandbox), unauthorized=unauthorized)
        device.start()
        started.append(device)
        if connect:
            done = adb_server("connect", device.serial)
            assert device.serial in done.stdout, done.stdout + done.stderr
        return device

    yield start
    for device in started:
        device.kill()
