"""Who an adb device is: getprop on Android, uname and /proc/cpuinfo on Linux boards, plus CPU state.

One shell script gathers everything as ``key=value`` lines; ``parse_info`` turns them into a
DeviceInfo. The CPU governor and thermal zones go in ``extra`` where the device lets us read them.
"""

from __future__ import annotations

from deploy.devices.result import DeviceInfo

_PROPS = (
    "ro.product.model",
    "ro.product.manufacturer",
    "ro.board.platform",
    "ro.soc.model",
    "ro.soc.manufacturer",
    "ro.build.version.release",
    "ro.build.version.sdk",
    "ro.product.cpu.abi",
)

# CPU governor and thermal zones: read before a run (in INFO_SCRIPT) and again after it.
STATE_SCRIPT = "; ".join(
    [
        'echo "governor=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null)"',
        'for z in /sys/class/thermal/thermal_zone*; do [ -r "$z/temp" ] && echo "thermal.$(cat "$z/type" 2>/dev/null)=$(cat "$z/temp")"; done',
        "true",
    ]
)

# Runs in sh (Android's mksh or a board's dash): nothing bash-only.
INFO_SCRIPT = "; ".join(
    [
        "if command -v getprop >/dev/null 2>&1; then for k in "
        + " ".join(_PROPS)
        + '; do echo "prop.$k=$(getprop $k)"; done; fi',
        'echo "uname=$(uname -srm 2>/dev/null)"',
        "echo \"nproc=$(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)\"",
        "echo \"dtmodel=$(tr -d '\\000' < /proc/device-tree/model 2>/dev/null)\"",
        "grep -E '^(Hardware|Model|model name)[[:space:]]*:' /proc/cpuinfo 2>/dev/null | head -n 3 | sed 's/^/cpuinfo./'",
        STATE_SCRIPT,
        "grep '^PRETTY_NAME=' /etc/os-release 2>/dev/null | sed 's/^PRETTY_NAME=/osrelease=/'",
        "true",
    ]
)


def parse_lines(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            key, sep, value = line.partition(":")  # cpuinfo.Hardware\t: BCM2835
        if sep and key.strip() and key.strip() not in values:
            values[key.strip()] = value.strip().strip('"')
    return values


def _thermal(values: dict[str, str]) -> dict:
    temps = {}
    for key, raw in values.items():
        if key.startswith("thermal.") and raw.lstrip("-").isdigit():
            reading = int(raw)
            temps[key[len("thermal.") :] or "zone"] = (
                reading / 1000.0 if abs(reading) > 1000 else float(reading)
            )
    if not temps:
        return {}
    return {"max_temp_c": max(temps.values()), "thermal_zones": len(temps)}


def parse_state(text: str) -> dict:
    """Governor and hottest thermal zone from STATE_SCRIPT output ({} where nothing is readable)."""
    values = parse_lines(text)
    state = {"governor": values["governor"]} if values.get("governor") else {}
    state.update(_thermal(values))
    return state


def parse_info(text: str, serial: str) -> DeviceInfo:
    """DeviceInfo from INFO_SCRIPT output: Android if getprop gave a release, else a Linux board."""
    values = parse_lines(text)
    prop = {k[len("prop.") :]: v for k, v in values.items() if k.startswith("prop.") and v}
    cores = int(values["nproc"]) if values.get("nproc", "").isdigit() else None
    extra: dict = {"uname": values.get("uname") or None}
    extra.update(parse_state(text))
    if prop.get("ro.build.version.release"):
        model = prop.get("ro.product.model")
        maker = prop.get("ro.product.manufacturer")
        if maker and model and not model.lower().startswith(maker.lower()):
            model = f"{maker} {model}"
        platform = prop.get("ro.board.platform")
        soc = prop.get("ro.soc.model") or platform
        if soc and platform and soc != platform:
            soc = f"{soc} ({platform})"
        sdk = prop.get("ro.build.version.sdk")
        system = f"Android {prop['ro.build.version.release']}" + (f" (API {sdk})" if sdk else "")
        if prop.get("ro.product.cpu.abi"):
            extra["abi"] = prop["ro.product.cpu.abi"]
        return DeviceInfo(
            kind="adb", serial=serial, model=model, soc=soc, cores=cores, os=system, extra=extra
        )
    model = values.get("dtmodel") or values.get("cpuinfo.Model") or values.get("cpuinfo.model name")
    soc = values.get("cpuinfo.Hardware") or (values.get("uname", "").split() or [None])[-1]
    system = values.get("osrelease") or "Linux"
    if values.get("uname"):
        system = f"{system} ({values['uname']})"
    return DeviceInfo(kind="adb", serial=serial, model=model, soc=soc, cores=cores, os=system, extra=extra)
