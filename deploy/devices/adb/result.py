"""A bench result from a runner that reports summary statistics only (TFLite's benchmark_model).

benchmark_model keeps its samples to itself and prints count/min/max/avg/std and, in recent
builds, p5/median/p95. The median is its p50; p90/p99 are not printed, so they are None here
rather than guessed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from deploy.devices.result import SCHEMA, BenchResult


@dataclass
class SummaryBenchResult(BenchResult):
    summary_ms: dict[str, float] = field(default_factory=dict)  # min, max, avg, std, p5, median, p95

    @property
    def p50_ms(self) -> float | None:  # type: ignore[override]
        return self.summary_ms.get("median")

    @property
    def p90_ms(self) -> float | None:  # type: ignore[override]
        return None

    @property
    def p99_ms(self) -> float | None:  # type: ignore[override]
        return None

    @property
    def mean_ms(self) -> float:  # type: ignore[override]
        return self.summary_ms["avg"]

    @property
    def std_ms(self) -> float | None:  # type: ignore[override]
        return self.summary_ms.get("std")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"schema": SCHEMA, "device": asdict(self.device)}
        for key in ("runtime", "runner", "artifact", "threads", "init_ms", "first_ms", "runs", "warmup"):
            out[key] = getattr(self, key)
        for key in ("p50_ms", "p90_ms", "p99_ms", "mean_ms", "std_ms"):
            value = getattr(self, key)
            out[key] = None if value is None else round(value, 4)
        out["peak_rss_mb"] = self.peak_rss_mb
        out["notes"] = list(self.notes)
        out["summary_ms"] = {k: round(v, 4) for k, v in self.summary_ms.items()}
        out["samples_ms"] = []
        return out
