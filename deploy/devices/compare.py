"""Dynamic vs static on one device: eager PyTorch and exported artifacts measured run by run, alternating.

All entries are loaded first (init timed per entry), each gets its first run, warm-up rounds,
then ``runs`` rounds in which every entry runs once, in a rotating order, so that drift in clock
speed or temperature hits all of them alike. ``write_chart`` (matplotlib, optional) draws p50/p90
latency, first-run latency and memory side by side; the CLI prints the same as a table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from deploy.atomic import atomic_path
from deploy.devices.local import LocalBenchResult, TimedSession, check_counts
from deploy.devices.result import BenchResult
from deploy.errors import InputError
from deploy.runtimes.base import Session

PEAK_NOTE = "peak RSS is the whole process's while this entry ran (all compared sessions loaded)"


def compare(
    entries: dict[str, Callable[[], Session]],
    *,
    runs: int = 50,
    warmup: int = 5,
    threads: int | None = None,
    inputs_for: dict[str, Sequence[np.ndarray]] | None = None,
) -> list[LocalBenchResult]:
    """Measure every entry on this host, alternating run by run; results come back in ``entries`` order.

    ``artifact`` in each result is the entry's label; ``peak_added_mb`` is the peak memory the entry
    added over its load and first run (what a session built inside its factory needs; objects that
    exist before the factory is called, such as an eager module's weights, are not counted).
    """
    from deploy.devices.host import host_info

    if not entries:
        raise InputError("nothing to compare")
    check_counts(runs, warmup, threads)
    timed = [TimedSession(factory, label) for label, factory in entries.items()]
    for entry in timed:
        entry.load((inputs_for or {}).get(entry.label))
        entry.first()
    for _ in range(warmup):
        for entry in timed:
            entry.warm()
    for round_index in range(runs):
        shift = round_index % len(timed)
        for entry in timed[shift:] + timed[:shift]:
            entry.sample(own_peak=True)
    device = host_info()
    results = []
    for entry in timed:
        result = entry.result(device, runs=runs, warmup=warmup, threads=threads)
        result.runner = "compare (alternating)"
        result.notes.append(PEAK_NOTE)
        results.append(result)
    return results


def write_chart(results: Sequence[BenchResult], path: str | Path) -> Path | None:
    """Draw latency (p50, p90, first run) and memory per entry as a PNG; None if matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    labels = [r.artifact for r in results]
    x = np.arange(len(results))
    figure, (latency, memory) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [2, 1]})
    series = [("p50", [r.p50_ms for r in results]), ("p90", [r.p90_ms for r in results])]
    series.append(("first run", [r.first_ms for r in results]))
    width = 0.8 / len(series)
    for index, (name, values) in enumerate(series):
        heights = [np.nan if v is None else v for v in values]
        latency.bar(x + (index - 1) * width, heights, width, label=name)
    latency.set_xticks(x, labels)
    latency.set_ylabel("latency (ms)")
    latency.set_yscale("log")
    latency.set_title(f"latency over {results[0].runs} alternating runs" if results else "latency")
    latency.legend()
    added = [getattr(r, "peak_added_mb", None) for r in results]
    memory.bar(x, [np.nan if v is None else max(v, 0.0) for v in added], 0.6, color="tab:gray")
    memory.set_xticks(x, labels)
    memory.set_ylabel("peak memory added, load + first run (MB)")
    memory.set_title("memory")
    figure.tight_layout()
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format="png", dpi=120)
    plt.close(figure)
    return Path(path)
