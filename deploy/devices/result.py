"""The bench result (DESIGN.md "Bench result", schema 1) and the statistics behind it.

Percentiles come from the raw samples, which are kept in the result.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

SCHEMA = 1


def percentile(samples: list[float], q: float) -> float:
    """Linear-interpolated percentile (numpy's default method) of raw samples; q in [0, 100]."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = (len(ordered) - 1) * q / 100.0
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


@dataclass
class DeviceInfo:
    kind: str  # local | cuda | adb
    serial: str | None = None
    model: str | None = None  # phone model, GPU name or CPU model
    soc: str | None = None  # SoC / board platform
    cores: int | None = None
    os: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # governor, thermal state, ...


@dataclass
class BenchResult:
    device: DeviceInfo
    runtime: str
    artifact: str
    threads: int | None
    init_ms: float
    first_ms: float
    runs: int
    warmup: int
    samples_ms: list[float]
    peak_rss_mb: float | None = None
    runner: str | None = None  # which runner measured it (e.g. benchmark_model, python)
    notes: list[str] = field(default_factory=list)

    @property
    def p50_ms(self) -> float:
        return percentile(self.samples_ms, 50)

    @property
    def p90_ms(self) -> float:
        return percentile(self.samples_ms, 90)

    @property
    def p99_ms(self) -> float:
        return percentile(self.samples_ms, 99)

    @property
    def mean_ms(self) -> float:
        return sum(self.samples_ms) / len(self.samples_ms)

    @property
    def std_ms(self) -> float:
        mean = self.mean_ms
        return math.sqrt(sum((s - mean) ** 2 for s in self.samples_ms) / len(self.samples_ms))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema": SCHEMA, "device": asdict(self.device)}
        for key in ("runtime", "runner", "artifact", "threads", "init_ms", "first_ms", "runs", "warmup"):
            out[key] = getattr(self, key)
        for key in ("p50_ms", "p90_ms", "p99_ms", "mean_ms", "std_ms"):
            out[key] = round(getattr(self, key), 4)
        out["peak_rss_mb"] = self.peak_rss_mb
        out["notes"] = list(self.notes)
        out["samples_ms"] = [round(s, 4) for s in self.samples_ms]
        return out
