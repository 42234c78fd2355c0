"""AdbDevice against an emulated device through the real adb client: push, run, pull, info, quoting."""

from __future__ import annotations

import pytest

from deploy.devices import get_device
from deploy.devices.adb import list_devices, make_device
from deploy.errors import DeviceError


def test_lists_a_phone_with_getprop_details(emulator):
    phone = emulator("phone")
    rows = {row["serial"]: row for row in list_devices()}
    row = rows[phone.serial]
    assert row["state"] == "device"
    assert row["model"] == "Google Pixel 7"
    assert row["soc"] == "Tensor G2 (gs201)"
    assert row["os"] == "Android 14 (API 34)"
    assert row["abi"] == "arm64-v8a"


def test_lists_a_linux_board_from_cpuinfo(emulator):
    board = emulator("board")
    info = make_device(board.serial).info()
    assert info.model == "Raspberry Pi 4 Model B Rev 1.4"
    assert info.soc == "BCM2835"
    assert info.os and info.os.startswith(("Debian", "Linux", "Ubuntu")) or "Linux" in info.os
    assert info.cores and info.cores >= 1


def test_push_run_pull_round_trip_with_an_awkward_file_name(emulator, tmp_path):
    phone = emulator("phone")
    device = get_device(f"adb:{phone.serial}")
    local = tmp_path / "a b'c\" $(x).bin"
    local.write_bytes(bytes(range(256)) * 300)
    remote = "/data/local/tmp/dir with space/" + local.name
    device.push(local, remote)
    listed = device.run(["ls", "-l", remote])
    assert listed.exit_code == 0 and "76800" in listed.stdout
    back = tmp_path / "back.bin"
    device.pull(remote, back)
    assert back.read_bytes() == local.read_bytes()
    device.pull("/data/local/tmp/dir with space", tmp_path / "folder")  # a directory: sync LIST
    assert (tmp_path / "folder" / local.name).read_bytes() == local.read_bytes()


def test_run_reports_exit_codes_and_stderr(emulator):
    device = make_device(emulator("phone").serial)
    done = device.run("echo out; echo err >&2; exit 7")
    assert (done.exit_code, done.stdout.strip(), done.stderr.strip()) == (7, "out", "err")
    assert device.run(["true"]).exit_code == 0


def test_arguments_reach_the_shell_quoted(emulator):
    phone = emulator("phone")
    device = make_device(phone.serial)
    hostile = "x; echo INJECTED; echo $HOME `id` $(id) \" ' \\"
    done = device.run(["echo", hostile])
    assert done.stdout.splitlines() == [hostile]


def test_make_device_connects_a_network_serial(emulator):
    phone = emulator("phone", connect=False)
    assert make_device(phone.serial).serial == phone.serial


def test_unauthorized_device_is_a_clear_error(emulator):
    phone = emulator("phone", unauthorized=True, connect=False)
    with pytest.raises(DeviceError, match="unauthorized.*USB debugging") as caught:
        make_device(phone.serial)
    assert caught.value.exit_code == 2
    row = next(r for r in list_devices() if r["serial"] == phone.serial)
    assert row["state"] == "unauthorized" and "soc" not in row


def test_several_devices_need_a_serial(emulator):
    emulator("phone")
    emulator("board")
    with pytest.raises(DeviceError, match="several adb devices"):
        make_device(None)


def test_no_device_is_a_clear_error_and_an_empty_list(adb_server):
    assert list_devices() == []
    with pytest.raises(DeviceError, match="no adb device connected"):
        make_device(None)
    with pytest.raises(DeviceError, match="no adb device emulator-5554"):
        make_device("emulator-5554")


def test_missing_adb_lists_nothing_and_errors_clearly(monkeypatch, tmp_path):
    monkeypatch.setenv("ADB", str(tmp_path / "no-adb-here"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert list_devices() == []
    with pytest.raises(DeviceError, match="adb is not installed"):
        make_device(None)


def test_device_that_never_answers_times_out(emulator):
    phone = emulator("phone")
    device = make_device(phone.serial)
    device.call_timeout_s = 3
    phone.freeze()
    with pytest.raises(DeviceError, match="timed out after 3s"):
        device.run(["echo", "hello"])


def test_device_gone_is_reported_offline(emulator):
    phone = emulator("phone")
    device = make_device(phone.serial)
    phone.kill()
    with pytest.raises(DeviceError, match="offline"):
        device.run(["echo", "hello"])
    with pytest.raises(DeviceError, match=f"adb device {phone.serial} is offline: reconnect"):
        make_device(phone.serial)
