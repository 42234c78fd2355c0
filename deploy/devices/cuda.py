"""Measure latency on a CUDA GPU: .pt2 packages and eager / torch.compile sessions, timed with CUDA events.

Inputs are put on the GPU once, before timing: the samples are GPU latency per inference, not host
copies. Each run is bracketed by CUDA events and synchronised, warm-up runs are excluded, and with
``cuda_graph=True`` the call is captured once into a CUDA graph and the samples are graph replays
(the replayed outputs are checked against a direct call first).
"""

from __future__ import annotations

import platform
import resource
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from deploy.devices.result import BenchResult, DeviceInfo
from deploy.errors import DeviceError, InputError
from deploy.runtimes.base import random_inputs


def _torch():
    try:
        import torch
    except ImportError as exc:
        raise DeviceError("the cuda device needs PyTorch with CUDA; torch is not installed") from exc
    return torch


def _check_counts(runs: int, warmup: int) -> None:
    if runs < 1:
        raise InputError(f"--runs must be at least 1, got {runs}")
    if warmup < 0:
        raise InputError(f"--warmup cannot be negative, got {warmup}")


class CudaDevice:
    """One CUDA GPU, by index."""

    kind = "cuda"

    def __init__(self, index: int = 0):
        self.index = index

    def info(self) -> DeviceInfo:
        torch = _torch()
        props = torch.cuda.get_device_properties(self.index)
        return DeviceInfo(
            kind="cuda",
            serial=str(self.index),
            model=props.name,
            cores=props.multi_processor_count,  # streaming multiprocessors
            os=f"{platform.system()} {platform.release()}",
            extra={
                "capability": f"{props.major}.{props.minor}",
                "memory_mb": round(props.total_memory / 2**20),
                "torch": torch.__version__,
                "cuda": torch.version.cuda,
            },
        )

    def bench(
        self,
        artifact: Path,
        *,
        runs: int = 50,
        warmup: int = 5,
        threads: int | None = None,
        inputs: Sequence[np.ndarray] | None = None,
        cuda_graph: bool = False,
    ) -> BenchResult:
        """Load a cuda .pt2 on this GPU (init_ms) and time it."""
        from deploy.runtimes.cuda import session as pt2

        artifact = Path(artifact)
        if artifact.suffix.lower() != ".pt2":
            raise InputError("the cuda device runs .pt2 packages (model.cuda.pt2)", file=str(artifact))
        kind = pt2.read_metadata(artifact).get(pt2.DEVICE_KEY) if artifact.is_file() else None
        if kind == "cpu":
            raise InputError(
                "this .pt2 was compiled for the CPU; bench it with --device local", file=str(artifact)
            )
        factory = lambda: pt2.load(artifact, device_index=self.index, single_threaded=cuda_graph)  # noqa: E731
        return self.bench_session(
            factory,
            label=str(artifact),
            runs=runs,
            warmup=warmup,
            threads=threads,
            inputs=inputs,
            cuda_graph=cuda_graph,
        )

    def eager_factory(self, loaded: Any, threads: int | None = None) -> Callable[[], Any]:
        """A factory of the eager baseline for a loaded model.py: the module on this GPU (``threads`` unused)."""
        from deploy.runtimes.cuda.eager import TorchSession

        return lambda: TorchSession(loaded.module, loaded.example_inputs, device=f"cuda:{self.index}")

    def bench_session(
        self,
        factory: Callable[[], Any],
        *,
        label: str,
        runs: int = 50,
        warmup: int = 5,
        threads: int | None = None,
        inputs: Sequence[np.ndarray] | None = None,
        cuda_graph: bool = False,
    ) -> BenchResult:
        """Time the session ``factory`` builds on this GPU: init (the factory call), first run, warm-up, samples.

        The session must run on the GPU and have ``device``, ``to_device`` and ``call(tensors)``:
        a Pt2Session of a cuda package, or deploy.runtimes.cuda.eager.TorchSession for eager/torch.compile.
        """
        _check_counts(runs, warmup)
        torch = _torch()
        with torch.cuda.device(self.index):
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
            start = time.perf_counter()
            session = factory()
            torch.cuda.synchronize()
            init_ms = (time.perf_counter() - start) * 1e3
            call, notes = _bound_call(session, inputs)
            first_ms = _time_once(torch, call)
            for _ in range(warmup):
                call()
            runner = "cuda-events"
            if cuda_graph:
                call, graph_note = _capture(torch, call)
                notes.append(graph_note)
                runner = "cuda-graph-replay"
            samples = [_time_once(torch, call) for _ in range(runs)]
            notes.append(f"gpu_peak_mb={torch.cuda.max_memory_allocated() / 2**20:.1f}")
        return BenchResult(
            device=self.info(),
            runtime=session.runtime,
            artifact=label,
            threads=threads,
            init_ms=init_ms,
            first_ms=first_ms,
            runs=runs,
            warmup=warmup,
            samples_ms=samples,
            peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 2),
            runner=runner,
            notes=notes,
        )


def _bound_call(session: Any, inputs: Sequence[np.ndarray] | None) -> tuple[Callable[[], Any], list[str]]:
    """A no-argument call of the session on fixed inputs already on the GPU.

    Only sessions that run on the GPU qualify (a Pt2Session of a cuda package, cuda.eager.TorchSession):
    timing a CPU session with CUDA events would report the wrong device.
    """
    device = getattr(session, "device", None)
    if getattr(device, "type", None) != "cuda" or not hasattr(session, "call"):
        raise InputError(
            f"the cuda device times sessions that run on the GPU; this {session.runtime} session does not "
            "(use deploy.runtimes.cuda.eager.TorchSession for eager PyTorch on CUDA)"
        )
    if inputs is None:
        sample = getattr(session, "sample_inputs", None)
        inputs = sample() if sample else random_inputs(session.input_specs)
    tensors = session.to_device(list(inputs))
    return (lambda: session.call(tensors)), ["inputs resident on the GPU; host copies not timed"]


def _time_once(torch: Any, call: Callable[[], Any]) -> float:
    """Milliseconds of one call on the current stream, by CUDA events, synchronised."""
    begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    begin.record()
    call()
    end.record()
    end.synchronize()
    return float(begin.elapsed_time(end))


def _capture(torch: Any, call: Callable[[], Any]) -> tuple[Callable[[], Any], str]:
    """Capture ``call`` into a CUDA graph; return its replay and a note with the replay-vs-direct difference."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):  # warm up on a side stream, as graph capture requires
            call()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(graph):
            captured = call()
    except Exception as exc:
        first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
        raise DeviceError(f"CUDA graph capture failed: {first}") from exc
    expected = [t.clone() for t in call()]
    graph.replay()
    torch.cuda.synchronize()
    diff = max(
        (float((a.float() - b.float()).abs().max()) for a, b in zip(captured, expected, strict=True)),
        default=0.0,
    )
    return graph.replay, f"cuda graph replay; max |replay - direct| = {diff:.3g}"


def make_device(serial: str | None = None) -> CudaDevice:
    """The GPU with index ``serial`` (default 0); DeviceError naming CUDA where there is none."""
    torch = _torch()
    if not torch.cuda.is_available():
        raise DeviceError("no CUDA GPU: torch.cuda.is_available() is False on this machine")
    try:
        index = int(serial) if serial else 0
    except ValueError as exc:
        raise InputError(f"a cuda device is named by GPU index (cuda:0), got cuda:{serial}") from exc
    count = torch.cuda.device_count()
    if not 0 <= index < count:
        raise DeviceError(f"no CUDA GPU with index {index}; this machine has {count}")
    return CudaDevice(index)


def list_devices() -> list[dict]:
    """Each CUDA GPU (name, memory, capability); [] without torch or CUDA."""
    try:
        import torch
    except ImportError:
        return []
    if not torch.cuda.is_available():
        return []
    found = []
    for index in range(torch.cuda.device_count()):
        info = CudaDevice(index).info()
        found.append(
            {
                "kind": "cuda",
                "serial": info.serial,
                "state": "device",
                "model": info.model,
                "memory_mb": info.extra["memory_mb"],
                "capability": info.extra["capability"],
                "cores": info.cores,
                "os": info.os,
            }
        )
    return found
