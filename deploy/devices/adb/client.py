"""A thin wrapper over the real ``adb`` client: every call gets ``-s SERIAL``, a timeout and a closed stdin.

adb itself has no timeouts, ``adb connect`` exits 0 when it fails, and a shell whose device dies
mid-command can exit 0 with truncated output; this module handles the first two, and callers
that need complete output use an end marker (see ``AdbDevice.run``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from deploy.errors import DeviceError

DEFAULT_TIMEOUT_S = 30.0


class DeviceLost(DeviceError):
    """The device stopped answering or vanished during a call: nothing more should be sent to it."""


@dataclass
class ShellResult:
    exit_code: int
    stdout: str
    stderr: str


def adb_binary() -> str | None:
    """The adb client to use: $ADB if set, else the one on PATH."""
    configured = os.environ.get("ADB")
    if configured:
        return configured if Path(configured).is_file() else shutil.which(configured)
    return shutil.which("adb")


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


class AdbClient:
    """Runs ``adb`` subprocesses. Raises DeviceError (exit 2) for anything that is not the device's answer."""

    def __init__(self, binary: str | None = None):
        found = binary or adb_binary()
        if not found:
            raise DeviceError(
                "adb is not installed (install the 'adb' package or set $ADB to the adb binary)"
            )
        self.binary = found

    def call(
        self, args: list[str], *, serial: str | None = None, timeout: float = DEFAULT_TIMEOUT_S
    ) -> subprocess.CompletedProcess:
        argv = [self.binary, *(["-s", serial] if serial else []), *args]
        try:
            return subprocess.run(
                argv,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=timeout,
                text=True,
                errors="replace",
            )
        except subprocess.TimeoutExpired as exc:
            who = f"device {serial}" if serial else "the adb server"
            raise DeviceLost(f"adb {args[0]} timed out after {timeout:g}s: {who} stopped answering") from exc
        except OSError as exc:
            raise DeviceError(f"cannot run adb ({self.binary}): {exc.strerror}") from exc

    def devices(self, timeout: float = DEFAULT_TIMEOUT_S) -> list[dict]:
        """``adb devices -l`` as dicts: serial, state and the banner fields (product, model, device, transport_id)."""
        done = self.call(["devices", "-l"], timeout=timeout)
        if done.returncode != 0:
            raise DeviceError(f"adb devices failed: {_last_line(done.stderr or done.stdout) or 'no output'}")
        return parse_devices(done.stdout)

    def connect(self, address: str, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        """``adb connect HOST:PORT``, checking the output because adb exits 0 on failure."""
        done = self.call(["connect", address], timeout=timeout)
        text = (done.stdout + done.stderr).strip()
        if not (text.startswith("connected to") or text.startswith("already connected to")):
            raise DeviceError(f"adb connect {address} failed: {_last_line(text) or 'no output'}")

    def disconnect(self, address: str, timeout: float = 10.0) -> None:
        self.call(["disconnect", address], timeout=timeout)

    def shell(self, serial: str, command: str, *, timeout: float = DEFAULT_TIMEOUT_S) -> ShellResult:
        """Run one already-quoted command line in the device shell; the device's exit code comes back (shell v2)."""
        done = self.call(["shell", command], serial=serial, timeout=timeout)
        return ShellResult(done.returncode, done.stdout, done.stderr)

    def push(self, serial: str, local: Path, remote: str, *, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        done = self.call(["push", str(local), remote], serial=serial, timeout=timeout)
        if done.returncode != 0:
            reason = _last_line(done.stderr or done.stdout) or f"exit {done.returncode}"
            raise DeviceError(f"adb push {local.name} to {serial}:{remote} failed: {reason}")

    def pull(self, serial: str, remote: str, local: Path, *, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        done = self.call(["pull", remote, str(local)], serial=serial, timeout=timeout)
        if done.returncode != 0:
            reason = _last_line(done.stderr or done.stdout) or f"exit {done.returncode}"
            raise DeviceError(f"adb pull {serial}:{remote} failed: {reason}")


def parse_devices(text: str) -> list[dict]:
    """Parse ``adb devices -l``: 'SERIAL  STATE key:value ...' lines after the header."""
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("List of devices") or line.startswith("*"):
            continue
        fields = line.split()
        if len(fields) < 2:
            continue
        entry: dict = {"serial": fields[0], "state": fields[1]}
        rest = fields[2:]
        if fields[1] == "no" and rest[:1] == ["permissions"]:  # 'no permissions (user ... not in plugdev)'
            entry["state"] = "no permissions"
        for field in rest:
            key, sep, value = field.partition(":")
            if sep and key in ("product", "model", "device", "transport_id", "usb"):
                entry[key] = value
        found.append(entry)
    return found
