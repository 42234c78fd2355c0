"""Runners that measure a model on an adb device, how to pick one, and how to read what they print.

- ``benchmark_model``: TFLite's native tool (already on the device, in /data/local/tmp, or pushed
  from ``runner_binary``). It prints summary statistics only (no raw samples).
- ``python``: deploy/devices/runners/bench_runner.py on a board with python3 and onnxruntime,
  ai-edge-litert or tflite_runtime; it prints every sample.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from deploy.errors import DeviceError

RUNNER_SCRIPT = Path(__file__).resolve().parent.parent / "runners" / "bench_runner.py"
RESULT_PREFIX = "__deploy_result__ "
_PY_MODULES = {
    "onnx": ("onnxruntime",),
    "tflite": ("ai_edge_litert.interpreter", "tflite_runtime.interpreter"),
}


def probe_script(workdir: str, kind: str) -> str:
    """Shell lines reporting which runners exist: ``benchmark_model=PATH``, ``python3=PATH``, ``python.MOD=1``."""
    lines = []
    if kind == "tflite":
        candidates = " ".join(
            shlex.quote(p) for p in (f"{workdir}/benchmark_model", "/data/local/tmp/benchmark_model")
        )
        lines.append(
            f'for b in {candidates} "$(command -v benchmark_model 2>/dev/null)"; do '
            'if [ -n "$b" ] && [ -x "$b" ]; then echo "benchmark_model=$b"; break; fi; done'
        )
    checks = " ".join(
        f"python3 -c {shlex.quote('import ' + module)} >/dev/null 2>&1 && echo python.{module}=1;"
        for module in _PY_MODULES[kind]
    )
    lines.append(
        f'if command -v python3 >/dev/null 2>&1; then echo "python3=$(command -v python3)"; {checks} fi'
    )
    lines.append("true")
    return "; ".join(lines)


@dataclass
class RunnerChoice:
    name: str  # "benchmark_model" | "python"
    binary: str | None = None  # device path of benchmark_model
    push_binary: Path | None = None  # local benchmark_model to push first
    notes: list[str] = field(default_factory=list)


def choose_runner(
    probe: dict[str, str], kind: str, *, wanted: str, runner_binary: Path | None
) -> RunnerChoice:
    """Pick a runner from the probe: an explicit binary, else benchmark_model on the device, else python."""
    has_python = any(probe.get(f"python.{m}") for m in _PY_MODULES[kind])
    if wanted not in ("auto", "benchmark_model", "python"):
        raise DeviceError(f"unknown runner {wanted!r}; expected auto, benchmark_model or python")
    if wanted in ("auto", "benchmark_model") and kind == "tflite":
        if runner_binary is not None:
            return RunnerChoice("benchmark_model", push_binary=Path(runner_binary))
        if probe.get("benchmark_model"):
            return RunnerChoice("benchmark_model", binary=probe["benchmark_model"])
    if wanted in ("auto", "python") and has_python:
        return RunnerChoice("python")
    need = " or ".join(_PY_MODULES[kind])
    if wanted == "benchmark_model" and kind != "tflite":
        raise DeviceError(f"benchmark_model runs .tflite models only, not .{kind}")
    if kind == "tflite":
        hint = "push TFLite's benchmark_model (--runner-binary PATH) or install python3 with ai-edge-litert"
    else:
        hint = "a .onnx needs python3 with onnxruntime on the device; export a .tflite for phones"
    python_state = "no python3" if not probe.get("python3") else f"python3 without {need}"
    raise DeviceError(f"no runner on the device for a .{kind} ({python_state}, no benchmark_model): {hint}")


def benchmark_model_command(
    binary: str, model: str, *, runs: int, warmup: int, threads: int | None, max_secs: float
) -> str:
    args = [
        binary,
        f"--graph={model}",
        f"--num_runs={runs}",
        f"--warmup_runs={max(warmup, 1)}",  # benchmark_model needs one warm-up run for its first-inference time
        "--min_secs=0",
        "--warmup_min_secs=0",
        f"--max_secs={max(int(max_secs), 1)}",
    ]
    if threads:
        args.append(f"--num_threads={threads}")
    return shlex.join(args)


def python_command(script: str, model: str, *, runs: int, warmup: int, threads: int | None) -> str:
    args = ["python3", script, "--model", model, "--runs", str(runs), "--warmup", str(warmup)]
    if threads:
        args += ["--threads", str(threads)]
    return shlex.join(args)


def parse_python_output(text: str) -> dict:
    """The runner's JSON line; DeviceError if it is missing or malformed."""
    for line in reversed(text.splitlines()):
        if line.startswith(RESULT_PREFIX):
            try:
                data = json.loads(line[len(RESULT_PREFIX) :])
            except json.JSONDecodeError as exc:
                raise DeviceError(f"the python runner printed a malformed result: {exc}") from exc
            if not data.get("samples_ms"):
                raise DeviceError("the python runner printed no samples")
            return data
    raise DeviceError("the python runner printed no result line")


_TIMINGS = re.compile(
    r"Inference timings in us: Init: (?P<init>[\d.e+-]+), First inference: (?P<first>[\d.e+-]+), "
    r"Warmup \(avg\): (?P<warmup>[\d.e+-]+), Inference \(avg\): (?P<avg>[\d.e+-]+)"
)
_STAT = re.compile(r"count=(?P<count>\d+)(?P<rest>( \w+=[\d.e+-]+)*)")
_MEMORY = re.compile(
    r"(?P<what>Peak memory footprint|Memory footprint delta from the start of the tool) \(MB\): "
    r"init=(?P<init>[\d.e+-]+) overall=(?P<overall>[\d.e+-]+)"
)


def parse_benchmark_model(text: str) -> dict:
    """Read benchmark_model's log: the timings line (required), the last ``count=...`` stat line (the
    measured runs: min/max/avg/std and p5/median/p95 where the build prints them), and memory."""
    timings = _TIMINGS.search(text)
    if timings is None:
        raise DeviceError(
            "benchmark_model printed no 'Inference timings in us' line (did it fail to load the model?)"
        )
    out: dict = {
        "init_ms": float(timings["init"]) / 1000.0,
        "first_ms": float(timings["first"]) / 1000.0,
        "warmup_avg_ms": float(timings["warmup"]) / 1000.0,
        "avg_ms": float(timings["avg"]) / 1000.0,
    }
    stats = [m for m in _STAT.finditer(text[: timings.start()])]
    if stats:
        last = stats[-1]
        values = dict(pair.split("=") for pair in last["rest"].split())
        out["count"] = int(last["count"])
        for key in ("min", "max", "avg", "std", "p5", "median", "p95"):
            if key in values:
                out[f"{key}_ms"] = float(values[key]) / 1000.0
    for memory in _MEMORY.finditer(text):
        out["peak_memory_mb" if memory["what"].startswith("Peak") else "memory_delta_mb"] = float(
            memory["overall"]
        )
    return out
