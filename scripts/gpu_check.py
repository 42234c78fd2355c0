"""GPU check in one call: samples -> model.cuda.pt2 (AOTInductor), verified on the GPU and timed.

Phases, cheapest and always useful first, each row written to $OUT as soon as it exists:
1. eager CUDA at batch 1 and 32 for every sample (mobilenet_v2, resnet, tiny_transformer);
2. torch.compile (default mode, static shapes), batch 1 for all samples, then batch 32, while the
   budget leaves GPU_CHECK_PT2_RESERVE_S for phase 3;
3. the .pt2 path in child processes (``--pt2-worker``): export + emit_pt2 for every sample at once
   (the compile is mostly serial Python and g++), then one child per sample that loads the package,
   checks parity against eager at batch 1 and 32 (float32, TF32 off) and times .pt2 and .pt2 +
   CUDA-graph replay. A native crash there (SIGSEGV in aoti_load_package) ends only that child and
   is reported as one line: ``FAILED [model] .pt2 load: killed by SIGSEGV (see log)``.
A failing step prints one line and the rest goes on. Needs only torch. Writes gpu_check.md /
gpu_check.json / gpu_check.log to $OUT when it is set. Run it through scripts/gpu_check.sh.

Knobs (environment): GPU_CHECK_MODELS, GPU_CHECK_BUDGET_S, GPU_CHECK_PT2_RESERVE_S, GPU_CHECK_STEPS
(eager,compile,pt2), GPU_CHECK_CONFIGS (JSON Inductor options for emit_pt2), GPU_CHECK_COMPILE_JOBS.
For tests of the control flow without a GPU: GPU_CHECK_DEVICE=cpu (everything on the CPU, model.cpu.pt2,
perf_counter timing, no CUDA graphs), GPU_CHECK_SAMPLES (a folder of model.py files),
GPU_CHECK_SIMULATE_CRASH=1 or model names (the .pt2 worker kills itself with SIGSEGV before loading).

This file is the entry point (parent and ``--pt2-worker`` children); the parts are its siblings, imported
from this folder: gpu_check_common (knobs, log, samples), gpu_check_timing (timer, eager and torch.compile
phases), gpu_check_package (export + emit_pt2), gpu_check_worker (the child's .pt2 steps),
gpu_check_children (starting and reaping the children, the .pt2 phase), gpu_check_report (table, $OUT files).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
from pathlib import Path

import torch
from gpu_check_children import phase_pt2, stop_all
from gpu_check_common import BATCHES, BUDGET_S, DEVICE, STEPS, say, setup_precision, step
from gpu_check_report import save
from gpu_check_timing import phase_compile, phase_eager
from gpu_check_worker import worker_main


def environment() -> dict:
    """Versions, GPU, compiler and Inductor settings, for the report's header and the json."""
    from deploy.runtimes.cuda.toolkit import cxx_compiler, ensure_cuda_home

    config = torch._inductor.config
    cuda = DEVICE == "cuda"
    return {
        "gpu": torch.cuda.get_device_name() if cuda else "cpu (dry run, GPU_CHECK_DEVICE=cpu)",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": sys.version.split()[0],
        "cxx": cxx_compiler(),
        "cuda_home": (step("CUDA toolkit", ensure_cuda_home) or "no CUDA headers found")
        if cuda
        else "no CUDA (dry run)",
        "cpus": os.cpu_count(),
        "inductor": {"compile_threads": config.compile_threads, "max_autotune": config.max_autotune},
        "budget_s": BUDGET_S,
    }


def stopped(*_) -> None:
    """SIGTERM: unwind once. `timeout` signals this process and then its whole process group, so a second
    SIGTERM can arrive while the first unwinds; it is ignored, or it would cut the cleanup short."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(124)


def main() -> int:
    """Run the phases named in GPU_CHECK_STEPS; print the table at the end, even when stopped."""
    if DEVICE == "cuda" and not torch.cuda.is_available():
        print(
            "gpu_check: no CUDA GPU visible to PyTorch (torch.cuda.is_available() is False)", file=sys.stderr
        )
        return 2
    setup_precision()
    env = environment()
    say(json.dumps(env))
    names = [
        n for n in os.environ.get("GPU_CHECK_MODELS", "mobilenet_v2,resnet,tiny_transformer").split(",") if n
    ]
    results: dict = {name: {"timing": {batch: {} for batch in BATCHES}} for name in names}
    save(results, env)
    # The shell's `timeout` sends SIGTERM: unwind, so the children are ended and the results saved.
    signal.signal(signal.SIGTERM, stopped)
    with tempfile.TemporaryDirectory(prefix="gpu_check_") as workdir:
        try:
            if "eager" in STEPS:
                phase_eager(names, results, env)
            if "compile" in STEPS:
                phase_compile(names, results, env)
            if "pt2" in STEPS:
                phase_pt2(names, results, env, Path(workdir))
        finally:
            stop_all(results, Path(workdir))
            print()
            print(save(results, env))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pt2-worker"]:
        sys.exit(worker_main(*sys.argv[2:5]))
    sys.exit(main())
