"""What every part of scripts/gpu_check.py shares: the environment knobs, the log, one-line failures, samples.

The knobs are read once, when this module is first imported (in the parent and again in each --pt2-worker
child, which gets the parent's deadline through GPU_CHECK_DEADLINE). LOG, FAILED and LAST_ERROR are mutated
in place, never rebound, so every module that imported them sees the same lists.
"""

from __future__ import annotations

import importlib.util
import os
import time
import traceback
from functools import cache
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
BUDGET_S = float(os.environ.get("GPU_CHECK_BUDGET_S", "420"))
# Wall-clock deadline shared with the worker processes (the parent passes its own down).
DEADLINE = float(os.environ.get("GPU_CHECK_DEADLINE") or time.time() + BUDGET_S)
DEVICE = os.environ.get("GPU_CHECK_DEVICE", "cuda")
SAMPLES = Path(os.environ.get("GPU_CHECK_SAMPLES") or ROOT / "samples")
STEPS = set(os.environ.get("GPU_CHECK_STEPS", "eager,compile,pt2").split(","))
BATCHES = (1, 32)
SEQ = 64
TIMING = {1: (10, 100), 32: (5, 30)}  # batch -> (warmup, runs)
OUT = Path(os.environ["OUT"]) if os.environ.get("OUT") else None
START = time.perf_counter()
LOG: list[str] = []
FAILED: list[str] = []
LAST_ERROR: list[BaseException | None] = [None]


def left_s() -> float:
    """Seconds left before the shared wall-clock deadline."""
    return DEADLINE - time.time()


def say(line: str) -> None:
    """Print one line and keep it in the log; a line starting with FAILED is also listed as a failure."""
    print(line, flush=True)
    LOG.append(line)
    if line.startswith("FAILED"):
        FAILED.append(line)


def step(label: str, fn, *args, **kwargs):
    """Run one step; on failure print one line (full traceback to the log) and return None."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # one model/mode failing must not stop the others
        LAST_ERROR[0] = exc
        first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), "")
        compiler = next((ln.strip() for ln in str(exc).splitlines() if "error:" in ln), "")
        say(
            f"FAILED {label}: {type(exc).__name__}: {first[:300]}"
            + (f" | {compiler[:300]}" if compiler else "")
        )
        LOG.append(traceback.format_exc())
        return None


@cache
def load_sample(name: str):
    """The sample's model.py module (SAMPLES/<name>.py), loaded once per process."""
    spec = importlib.util.spec_from_file_location(f"sample_{name}", SAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_inputs(name: str, batch: int, seed: int) -> list[np.ndarray]:
    """Inputs at ``batch``: images 224x224, token ids at SEQ, else the sample's example shapes."""
    rng = np.random.default_rng(seed)
    if name == "tiny_transformer":
        return [rng.integers(0, 1000, size=(batch, SEQ)).astype(np.int64)]
    if name in ("mobilenet_v2", "resnet"):
        return [rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)]
    out = []
    for t in load_sample(name).example_inputs():
        shape = (batch, *t.shape[1:])
        floating = t.dtype.is_floating_point
        out.append(rng.standard_normal(shape).astype(np.float32) if floating else rng.integers(0, 10, shape))
    return out


def torch_inputs(name: str, batch: int, seed: int = 0) -> list[torch.Tensor]:
    """make_inputs as torch tensors (on the CPU)."""
    return [torch.from_numpy(x) for x in make_inputs(name, batch, seed)]


def empty_cache() -> None:
    """Give cached GPU memory back between models (nothing to do on the CPU)."""
    if DEVICE == "cuda":
        torch.cuda.empty_cache()


def setup_precision() -> None:
    """Float32 parity and timing: TF32 off everywhere (Inductor reads these flags when it compiles)."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
