"""The device protocol: one small interface per place a model can run.

A device knows who it is (``info``) and can measure an artifact (``bench``). Remote
devices build ``bench`` from push / run / pull steps of their own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from deploy.devices.result import BenchResult, DeviceInfo


class Device(Protocol):
    kind: str

    def info(self) -> DeviceInfo: ...

    def bench(self, artifact: Path, *, runs: int, warmup: int, threads: int | None) -> BenchResult: ...
