"""Building a sample's model.<device>.pt2 for the GPU check: torch.export, then emit_pt2 (AOTInductor).

Runs in a --pt2-worker child (see gpu_check_worker.py), so a compile that hangs or crashes ends only that child.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import torch
from gpu_check_common import DEVICE, LAST_ERROR, left_s, load_sample, say, step, torch_inputs

from deploy.runtimes.cuda.emit import emit_pt2

# Inductor options for the AOTI compile; explicit so a TORCHINDUCTOR_* variable on the machine can't
# turn on the slow autotuning paths. GPU_CHECK_CONFIGS adds to / overrides them.
# (max_autotune is off by default and compile_threads already min(32, cores); Inductor's own defaults.)
FAST_COMPILE = {
    "max_autotune": False,
    "max_autotune_gemm": False,
    "max_autotune_pointwise": False,
    "coordinate_descent_tuning": False,
}


def export(name: str) -> torch.export.ExportedProgram:
    """Non-strict export on CPU with a dynamic batch (example batch 2: 1 would specialise)."""
    model = load_sample(name).model().eval()
    batch = torch.export.Dim("batch", min=1, max=64)
    example = tuple(torch_inputs(name, 2))
    if name == "tiny_transformer":
        dynamic = ({0: batch, 1: torch.export.Dim("seq", min=2, max=256)},)
    else:
        dynamic = tuple({0: batch} for _ in example)
    with torch.no_grad():
        return torch.export.export(model, example, dynamic_shapes=dynamic, strict=False)


def compile_configs() -> dict:
    """FAST_COMPILE plus GPU_CHECK_CONFIGS, less the options this torch does not have."""
    wanted = {**FAST_COMPILE, **json.loads(os.environ.get("GPU_CHECK_CONFIGS", "{}"))}
    known = torch._inductor.config.get_config_copy()
    dropped = sorted(k for k in wanted if k not in known)
    if dropped:
        say(f"  Inductor options not in torch {torch.__version__}, left out: {', '.join(dropped)}")
    return {k: v for k, v in wanted.items() if k in known}


def compile_package(name: str, program, workdir: Path) -> dict | None:
    """emit_pt2; one retry without freezing if that fails and time allows."""
    out = workdir / name / f"model.{DEVICE}.pt2"
    threads = torch._inductor.config.compile_threads
    say(f"[{name}] compiling model.{DEVICE}.pt2 ({left_s():.0f} s of budget left, {threads} compile threads)")
    configs = compile_configs()
    info = step(f"[{name}] .pt2 compile", emit_pt2, program, out, device=DEVICE, configs=configs)
    # A missing toolkit or a C++ build error would fail again; an Inductor lowering problem might not.
    error = str(LAST_ERROR[0]) if info is None else ""
    if info is None and left_s() > 120 and "CUDA" not in error and "error:" not in error:
        say(f"[{name}] retrying emit_pt2 with freezing off")
        configs = {**configs, "freezing": False}
        info = step(
            f"[{name}] .pt2 compile (freezing off)", emit_pt2, program, out, device=DEVICE, configs=configs
        )
    if info is not None:
        info.pop("ops", None)
        say(
            f"  compiled in {info['seconds']:.1f} s, {info['bytes'] / 2**20:.1f} MiB; {'; '.join(info['notes'])}"
        )
    return info
