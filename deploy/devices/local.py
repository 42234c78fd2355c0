"""Measure latency on this host: load an artifact (or any Session factory) and time it run by run.

init_ms is load + allocate, first_ms the first inference, warm-up runs are excluded from the
samples, and memory comes from the process's own accounting (/proc/self/status; the peak is
reset through /proc/self/clear_refs where the kernel allows it, so it belongs to this bench).
"""

from __future__ import annotations

import ctypes
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deploy.devices.host import cpu_model, host_info, os_name, usable_cores
from deploy.devices.result import BenchResult, DeviceInfo
from deploy.errors import InputError
from deploy.runtimes.base import Session, random_inputs

_MB = 1024.0 * 1024.0


def _status_kb(field: str) -> float | None:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return float(line.split()[1])
    except OSError:
        pass
    return None


def rss_mb() -> float | None:
    """Resident set size of this process now, in MiB."""
    kb = _status_kb("VmRSS")
    return None if kb is None else kb / 1024.0


def trim_heap() -> None:
    """Hand freed heap pages back to the OS (glibc malloc_trim), so that memory freed by earlier work
    is not silently reused by the next session and hidden from its RSS growth."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (VmHWM) for this process; False where that is not allowed."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def peak_rss_mb() -> float:
    """Peak resident set size in MiB: VmHWM, else getrusage's lifetime maximum."""
    kb = _status_kb("VmHWM")
    if kb is None:
        kb = float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)  # KiB on Linux
    return kb / 1024.0


@dataclass
class LocalBenchResult(BenchResult):
    """A local result plus ``peak_added_mb``: the peak RSS above the pre-load baseline over load + first
    inference (the memory this session needs), where the kernel lets the peak mark be reset."""

    peak_added_mb: float | None = None

    def to_dict(self) -> dict:
        out = super().to_dict()
        out["peak_added_mb"] = None if self.peak_added_mb is None else round(self.peak_added_mb, 2)
        return out


class TimedSession:
    """One session under measurement, driven step by step so that several can be interleaved."""

    def __init__(self, factory: Callable[[], Session], label: str):
        self.factory = factory
        self.label = label
        self.session: Session | None = None
        self.inputs: list[np.ndarray] = []
        self.init_ms = self.first_ms = 0.0
        self.samples_ms: list[float] = []
        self.peak_mb = 0.0
        self.peak_added_mb: float | None = None
        self._rss_before: float | None = None
        self.peak_reset = True

    def load(self, inputs: Sequence[np.ndarray] | None = None) -> None:
        trim_heap()
        self.peak_reset = reset_peak_rss()
        self._rss_before = rss_mb()
        start = time.perf_counter_ns()
        self.session = self.factory()
        self.init_ms = (time.perf_counter_ns() - start) / 1e6
        self.inputs = list(inputs) if inputs is not None else random_inputs(self.session.input_specs)
        self._note_peak()

    def first(self) -> None:
        self.first_ms = self._timed_run()
        after = peak_rss_mb() if self.peak_reset else rss_mb()
        if after is not None and self._rss_before is not None:
            self.peak_added_mb = max(after - self._rss_before, 0.0)
        self._note_peak()

    def warm(self) -> None:
        self._timed_run()

    def sample(self, *, own_peak: bool = False) -> None:
        """One timed run. ``own_peak`` resets the peak mark first, so that the peak seen is this run's
        (with other sessions loaded, still the whole process's resident memory)."""
        if own_peak:
            reset_peak_rss()
        self.samples_ms.append(self._timed_run())
        self._note_peak()

    def _timed_run(self) -> float:
        assert self.session is not None, "load() first"
        start = time.perf_counter_ns()
        self.session.run(self.inputs)
        return (time.perf_counter_ns() - start) / 1e6

    def _note_peak(self) -> None:
        self.peak_mb = max(self.peak_mb, peak_rss_mb())

    def result(self, device: DeviceInfo, *, runs: int, warmup: int, threads: int | None) -> LocalBenchResult:
        assert self.session is not None
        notes = [] if self.peak_reset else ["peak RSS is the process lifetime peak (clear_refs not allowed)"]
        return LocalBenchResult(
            device=device,
            runtime=self.session.runtime,
            artifact=self.label,
            threads=threads,
            init_ms=self.init_ms,
            first_ms=self.first_ms,
            runs=runs,
            warmup=warmup,
            samples_ms=list(self.samples_ms),
            peak_rss_mb=round(self.peak_mb, 2),
            runner="in-process",
            notes=notes,
            peak_added_mb=self.peak_added_mb,
        )


def check_counts(runs: int, warmup: int, threads: int | None) -> None:
    if runs < 1:
        raise InputError(f"--runs must be at least 1, got {runs}")
    if warmup < 0:
        raise InputError(f"--warmup cannot be negative, got {warmup}")
    if threads is not None and threads < 1:
        raise InputError(f"--threads must be at least 1, got {threads}")


class LocalDevice:
    """This host's CPU."""

    kind = "local"

    def info(self) -> DeviceInfo:
        return host_info()

    def bench(
        self,
        artifact: Path,
        *,
        runs: int = 50,
        warmup: int = 5,
        threads: int | None = None,
        inputs: Sequence[np.ndarray] | None = None,
    ) -> LocalBenchResult:
        """Load ``artifact`` with the runtime its suffix names (threads fixed at load) and time it."""
        from deploy import runtimes

        artifact = Path(artifact)
        runtimes.artifact_kind(artifact)  # fail on an unknown suffix before timing anything
        return self.bench_session(
            lambda: runtimes.load(artifact, threads=threads),
            label=str(artifact),
            runs=runs,
            warmup=warmup,
            threads=threads,
            inputs=inputs,
        )

    def bench_session(
        self,
        factory: Callable[[], Session],
        *,
        label: str,
        runs: int = 50,
        warmup: int = 5,
        threads: int | None = None,
        inputs: Sequence[np.ndarray] | None = None,
    ) -> LocalBenchResult:
        """Time the session ``factory`` builds: init (the factory call), first run, warm-up, then ``runs`` samples."""
        check_counts(runs, warmup, threads)
        timed = TimedSession(factory, label)
        timed.load(inputs)
        timed.first()
        for _ in range(warmup):
            timed.warm()
        for _ in range(runs):
            timed.sample()
        return timed.result(self.info(), runs=runs, warmup=warmup, threads=threads)


def make_device(serial: str | None = None) -> LocalDevice:
    if serial:
        raise InputError(f"the local device takes no serial (got local:{serial})")
    return LocalDevice()


def list_devices() -> list[dict]:
    """This host, as ``deploy devices`` shows it."""
    info = host_info()
    return [
        {
            "kind": "local",
            "serial": info.serial,
            "state": "device",
            "model": cpu_model(),
            "soc": info.soc,
            "cores": usable_cores(),
            "os": os_name(),
            **{k: v for k, v in info.extra.items() if k in ("governor", "max_temp_c")},
        }
    ]
