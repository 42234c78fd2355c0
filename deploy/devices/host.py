"""What this host is: CPU model, cores, OS, and the CPU governor / thermal state where Linux exposes them.

Shared by the local harness (DeviceInfo for results) and ``deploy devices``.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

from deploy.devices.result import DeviceInfo


def _read(path: str | Path) -> str | None:
    try:
        return Path(path).read_text(errors="replace").strip()
    except OSError:
        return None


def cpu_model() -> str | None:
    """The CPU's marketing name from /proc/cpuinfo (x86 "model name", Arm "Hardware"/"Model"), else platform's."""
    text = _read("/proc/cpuinfo") or ""
    for key in ("model name", "Model", "Hardware", "cpu model"):
        for line in text.splitlines():
            name, _, value = line.partition(":")
            if name.strip() == key and value.strip():
                return value.strip()
    return platform.processor() or platform.machine() or None


def os_name() -> str:
    """A readable OS line: the distribution's PRETTY_NAME and the kernel release on Linux."""
    pretty = None
    for line in (_read("/etc/os-release") or "").splitlines():
        if line.startswith("PRETTY_NAME="):
            pretty = line.partition("=")[2].strip().strip('"')
    kernel = f"{platform.system()} {platform.release()}"
    return f"{pretty} ({kernel})" if pretty else kernel


def usable_cores() -> int:
    """Cores this process may run on (the affinity mask), which is what thread counts should respect."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def cpu_state() -> dict:
    """CPU frequency governor and hottest thermal zone, where /sys exposes them (often absent in containers)."""
    state: dict = {}
    governor = _read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
    if governor:
        state["governor"] = governor
    temps = []
    for zone in sorted(Path("/sys/class/thermal").glob("thermal_zone*")):
        raw = _read(zone / "temp")
        if raw and raw.lstrip("-").isdigit():
            temps.append(int(raw) / 1000.0)
    if temps:
        state["max_temp_c"] = max(temps)
    return state


def host_info() -> DeviceInfo:
    extra = {"arch": platform.machine(), "cpu_count": os.cpu_count(), **cpu_state()}
    return DeviceInfo(
        kind="local",
        serial=platform.node() or None,
        model=cpu_model(),
        soc=platform.machine(),
        cores=usable_cores(),
        os=os_name(),
        extra=extra,
    )
