"""Harnesses that measure latency where a model runs: this host, a CUDA GPU, adb devices.

``get_device("local" | "cuda" | "adb" | "adb:SERIAL")`` returns a Device; ``list_devices()``
lists what is reachable now. Device modules are imported lazily.
"""

from __future__ import annotations

import importlib
import sys
import types

from deploy.devices.base import Device
from deploy.devices.result import BenchResult, DeviceInfo
from deploy.errors import InputError

# device kind -> module with make_device(serial: str | None) -> Device and list_devices() -> list[dict]
_MODULES = {
    "local": "deploy.devices.local",
    "cuda": "deploy.devices.cuda",
    "adb": "deploy.devices.adb",
}


def get_device(spec: str) -> Device:
    kind, _, serial = spec.partition(":")
    if kind not in _MODULES:
        raise InputError(f"unknown device {spec!r}; expected local, cuda, adb or adb:SERIAL")
    module = importlib.import_module(_MODULES[kind])
    return module.make_device(serial or None)


def list_devices() -> list[dict]:
    """Every reachable device, as plain dicts (kind, serial, state, model, soc, os, ...)."""
    found: list[dict] = []
    for name in _MODULES.values():
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        found.extend(module.list_devices())
    return found


__all__ = ["Device", "DeviceInfo", "BenchResult", "get_device", "list_devices"]


class _CallablePackage(types.ModuleType):
    """``deploy.devices`` is both this subpackage and the API call ``deploy.devices()``.

    Once the subpackage is imported it shadows the lazy API name on ``deploy``, so calling the
    package lists the devices, exactly as ``deploy.api.devices()`` does.
    """

    def __call__(self) -> list[dict]:
        return list_devices()


sys.modules[__name__].__class__ = _CallablePackage
