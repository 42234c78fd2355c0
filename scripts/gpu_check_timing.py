"""Timing for the GPU check: one timer for every mode, and the eager and torch.compile phases (in the parent).

bench() times a session factory with CudaDevice.bench_session (CUDA events, optionally CUDA-graph replay), or
with perf_counter in the CPU dry run; the .pt2 worker uses it too, for .pt2 and .pt2 + CUDA graph.
"""

from __future__ import annotations

import os
import time

import numpy as np
import torch
from gpu_check_common import (
    BATCHES,
    DEVICE,
    STEPS,
    TIMING,
    empty_cache,
    left_s,
    load_sample,
    make_inputs,
    say,
    step,
    torch_inputs,
)
from gpu_check_report import save

from deploy.runtimes.cuda.eager import TorchSession


def cpu_bench(factory, inputs: list[np.ndarray], warmup: int, runs: int) -> dict:
    """The dry-run timer (GPU_CHECK_DEVICE=cpu): perf_counter around session.call on fixed inputs."""
    session = factory()
    tensors = session.to_device(inputs)
    begin = time.perf_counter()
    session.call(tensors)
    first_ms = (time.perf_counter() - begin) * 1e3
    for _ in range(warmup):
        session.call(tensors)
    samples = []
    for _ in range(runs):
        begin = time.perf_counter()
        session.call(tensors)
        samples.append((time.perf_counter() - begin) * 1e3)
    p50, p90 = np.percentile(samples, [50, 90])
    return {"p50_ms": float(p50), "p90_ms": float(p90), "first_ms": first_ms, "notes": ["cpu dry run"]}


def bench(factory, name: str, batch: int, label: str, cuda_graph: bool = False) -> dict:
    """Time the session ``factory`` makes on ``name``'s inputs at ``batch``; prints and returns one row."""
    warmup, runs = TIMING[batch]
    inputs = make_inputs(name, batch, seed=7)
    if DEVICE == "cpu":
        row = cpu_bench(factory, inputs, warmup, runs)
    else:
        from deploy.devices.cuda import CudaDevice

        result = CudaDevice(0).bench_session(
            factory, label=label, runs=runs, warmup=warmup, threads=None, inputs=inputs, cuda_graph=cuda_graph
        )
        row = {"p50_ms": result.p50_ms, "p90_ms": result.p90_ms, "first_ms": result.first_ms}
        row["notes"] = result.notes
    say(
        f"  {name} b{batch} {label}: p50 {row['p50_ms']:.3f} ms, p90 {row['p90_ms']:.3f} ms, "
        f"first {row['first_ms']:.1f} ms"
    )
    return row


def phase_eager(names: list[str], results: dict, env: dict) -> None:
    """Eager timing at every batch, one sample after the other."""
    for name in names:
        session = step(
            f"[{name}] eager",
            lambda n=name: TorchSession(load_sample(n).model(), torch_inputs(n, 1), device=DEVICE),
        )
        for batch in BATCHES:
            if session is None or left_s() < 10:
                say(f"  skipped {name} b{batch} eager" + ("" if session is None else ": time budget"))
                continue
            row = step(f"[{name}] eager b{batch}", bench, lambda s=session: s, name, batch, "eager")
            results[name]["timing"][batch]["eager"] = row
            save(results, env)
        del session
        empty_cache()


def phase_compile(names: list[str], results: dict, env: dict) -> None:
    """torch.compile, batch 1 for every sample first, then batch 32, leaving the .pt2 phase its reserve."""
    reserve = float(os.environ.get("GPU_CHECK_PT2_RESERVE_S", "200")) if "pt2" in STEPS else 0.0
    for batch in BATCHES:
        for name in names:
            if left_s() - reserve < 45:
                say(f"  skipped {name} b{batch} torch.compile: time budget (.pt2 reserve {reserve:.0f} s)")
                continue

            def factory(name=name, batch=batch):
                model = load_sample(name).model()
                options = {"dynamic": False}
                return TorchSession(
                    model, torch_inputs(name, batch), device=DEVICE, compile=True, compile_options=options
                )

            row = step(f"[{name}] torch.compile b{batch}", bench, factory, name, batch, "torch.compile")
            results[name]["timing"][batch]["compile"] = row
            torch._dynamo.reset()
            empty_cache()
            save(results, env)
