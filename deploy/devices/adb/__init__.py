"""The adb harness: Android phones and Linux boards reached through the real ``adb`` client.

``make_device(serial)`` resolves and checks the device (a ``HOST:PORT`` serial not yet known is
``adb connect``-ed); ``list_devices()`` lists what adb sees, never raising for "nothing there".
"""

from __future__ import annotations

from deploy.devices.adb.client import AdbClient, adb_binary
from deploy.devices.adb.device import AdbDevice
from deploy.errors import DeviceError

_STATE_HINTS = {
    "unauthorized": "accept the 'Allow USB debugging' prompt on the device, then retry",
    "offline": "reconnect the device (adb reports it offline)",
    "no permissions": "fix the USB permissions (udev rules / plugdev group)",
    "authorizing": "the device is still authorizing; retry in a moment",
}


def _resolve(client: AdbClient, serial: str | None) -> dict:
    listed = client.devices()
    if serial is None:
        if not listed:
            raise DeviceError("no adb device connected (adb devices lists none)")
        if len(listed) > 1:
            names = ", ".join(d["serial"] for d in listed)
            raise DeviceError(f"several adb devices connected ({names}); pick one with --device adb:SERIAL")
        return listed[0]
    for entry in listed:
        if entry["serial"] == serial:
            return entry
    if ":" in serial:  # a network device: connect once, then look again
        failure = None
        try:
            client.connect(serial)
        except DeviceError as exc:  # it may still be listed, e.g. as unauthorized, which says more
            failure = exc
        for entry in client.devices():
            if entry["serial"] == serial:
                return entry
        if failure is not None:
            raise failure
    names = ", ".join(d["serial"] for d in listed) or "none"
    raise DeviceError(f"no adb device {serial} (connected: {names})")


def make_device(serial: str | None = None, **options) -> AdbDevice:
    """The device ``serial`` (or the only one connected), checked to be in the 'device' state."""
    client = AdbClient()
    entry = _resolve(client, serial)
    state = entry["state"]
    if state != "device":
        hint = _STATE_HINTS.get(state, "")
        raise DeviceError(f"adb device {entry['serial']} is {state}" + (f": {hint}" if hint else ""))
    return AdbDevice(entry["serial"], client=client, **options)


def list_devices() -> list[dict]:
    """Every device adb sees: serial, state, model, soc/board, OS; [] without adb or devices."""
    if adb_binary() is None:
        return []
    client = AdbClient()
    try:
        listed = client.devices(timeout=15)
    except DeviceError:
        return []
    found = []
    for entry in listed:
        row = {"kind": "adb", "serial": entry["serial"], "state": entry["state"], "model": entry.get("model")}
        if entry["state"] == "device":
            try:
                info = AdbDevice(entry["serial"], client=client, call_timeout_s=15).info()
                row.update(model=info.model, soc=info.soc, cores=info.cores, os=info.os, **info.extra)
            except DeviceError as exc:
                row["error"] = exc.message
        found.append(row)
    return found


__all__ = ["AdbDevice", "AdbClient", "make_device", "list_devices"]
