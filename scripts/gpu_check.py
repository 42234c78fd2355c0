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
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from functools import cache
from pathlib import Path

import numpy as np
import torch

from deploy.atomic import write_text
from deploy.runtimes.cuda import session as pt2
from deploy.runtimes.cuda.eager import TorchSession
from deploy.runtimes.cuda.emit import emit_pt2

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
# Inductor options for the AOTI compile; explicit so a TORCHINDUCTOR_* variable on the machine can't
# turn on the slow autotuning paths. GPU_CHECK_CONFIGS adds to / overrides them.
# (max_autotune is off by default and compile_threads already min(32, cores); Inductor's own defaults.)
FAST_COMPILE = {
    "max_autotune": False,
    "max_autotune_gemm": False,
    "max_autotune_pointwise": False,
    "coordinate_descent_tuning": False,
}


def left_s() -> float:
    return DEADLINE - time.time()


def say(line: str) -> None:
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
    return [torch.from_numpy(x) for x in make_inputs(name, batch, seed)]


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


def compare(got: list[np.ndarray], want: list[np.ndarray]) -> dict:
    """Float32 parity: max |diff|, that relative to the output scale, ok at 1e-3 of scale (+1e-5)."""
    max_abs = max(float(np.abs(g.astype(np.float64) - w).max()) for g, w in zip(got, want, strict=True))
    scale = max(float(np.abs(w).max()) for w in want)
    return {"max_abs": max_abs, "max_rel": max_abs / max(scale, 1e-12), "ok": max_abs <= 1e-3 * scale + 1e-5}


def verify(name: str, eager: TorchSession, session: pt2.Pt2Session) -> dict:
    out = {}
    for batch in BATCHES:
        inputs = make_inputs(name, batch, seed=100 + batch)
        out[batch] = compare(session.run(inputs), eager.run(inputs))
        v = out[batch]
        say(f"  parity {name} b{batch}: max_abs={v['max_abs']:.3g} max_rel={v['max_rel']:.3g} ok={v['ok']}")
    return out


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


# ---- the .pt2 worker: runs in a child process, so a native crash ends only the child ----


class Worker:
    """State of one --pt2-worker run, written to state.json after every stage (the parent reads it)."""

    def __init__(self, name: str, workdir: Path):
        self.name, self.workdir = name, workdir
        self.path = workdir / name / "state.json"
        self.state = json.loads(self.path.read_text()) if self.path.is_file() else {"timing": {}}

    def stage(self, stage: str) -> None:
        self.state["stage"] = stage
        self.save()

    def save(self) -> None:
        self.state["failed"] = FAILED
        self.state["log"] = [line for line in LOG if "\n" in line]  # tracebacks; lines are streamed
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_text(self.path, json.dumps(self.state, default=str))

    def compile(self) -> None:
        self.stage(".pt2 export")
        program = step(f"[{self.name}] .pt2 export", export, self.name)
        if program is not None:
            self.stage(".pt2 compile")
            self.state["compile"] = compile_package(self.name, program, self.workdir)
        self.stage("done")

    def run(self) -> None:
        name = self.name
        path = Path(self.state["compile"]["path"])
        eager = TorchSession(load_sample(name).model(), torch_inputs(name, 1), device=DEVICE)
        self.stage(".pt2 load")
        crash = os.environ.get("GPU_CHECK_SIMULATE_CRASH", "")
        if crash == "1" or name in crash.split(","):
            os.kill(os.getpid(), signal.SIGSEGV)
        session = step(f"[{name}] .pt2 load", pt2.load, path)
        if session is None:
            return
        self.stage(".pt2 verify")
        self.state["parity"] = step(f"[{name}] .pt2 verify", verify, name, eager, session)
        del eager
        for label, key in ((".pt2", "pt2"), (".pt2+graph", "pt2_graph")):
            if key == "pt2_graph" and DEVICE != "cuda":
                say(f"  skipped {name} {label}: CUDA graphs need a GPU")
                continue
            for batch in BATCHES:
                if left_s() < 5:
                    say(f"  skipped {name} b{batch} {label}: time budget")
                    continue
                self.stage(f"{label} b{batch} timing")
                factory = (
                    (lambda: session) if key == "pt2" else (lambda: pt2.load(path, single_threaded=True))
                )
                row = step(
                    f"[{name}] {label} b{batch}", bench, factory, name, batch, label, key == "pt2_graph"
                )
                self.state["timing"].setdefault(str(batch), {})[key] = row
                self.save()
        self.stage("done")


def worker_main(kind: str, name: str, workdir: str) -> int:
    setup_precision()
    worker = Worker(name, Path(workdir))
    try:
        worker.compile() if kind == "compile" else worker.run()
    finally:
        worker.save()
    return 0


# ---- the parent ----

CHILDREN: dict[str, subprocess.Popen] = {}


def spawn(kind: str, name: str, workdir: Path, threads: int | None = None) -> subprocess.Popen:
    """Start a --pt2-worker child in its own session; its output is streamed to ours and to the log.

    ``threads``: Inductor compile threads for the child (unless TORCHINDUCTOR_COMPILE_THREADS is set),
    so that children compiling at once share the cores instead of each starting one worker per core.
    """
    env = {**os.environ, "GPU_CHECK_DEADLINE": str(DEADLINE)}
    if threads:
        env.setdefault("TORCHINDUCTOR_COMPILE_THREADS", str(threads))
    command = [sys.executable, "-X", "faulthandler", __file__, "--pt2-worker", kind, name, str(workdir)]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
    )

    def pump() -> None:
        for line in proc.stdout:
            print(line.rstrip("\n"), flush=True)
            LOG.append(line.rstrip("\n"))

    proc.pump = threading.Thread(target=pump, daemon=True)
    proc.pump.start()
    CHILDREN[f"{kind} {name}"] = proc
    return proc


def kill(proc: subprocess.Popen) -> None:
    """End a child we started, with the Inductor compile workers it started (its process group)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def finish(kind: str, name: str, workdir: Path, results: dict) -> None:
    """Wait for a worker (within the budget), merge what it recorded, report how it ended in one line."""
    proc = CHILDREN[f"{kind} {name}"]  # stays listed until it has ended: a SIGTERM here must still kill it
    try:
        rc = proc.wait(timeout=max(1.0, left_s() + 15))
    except subprocess.TimeoutExpired:
        kill(proc)
        rc = None
    proc.pump.join(timeout=10)
    del CHILDREN[f"{kind} {name}"]
    state = Worker(name, workdir).state
    merge(results[name], state)
    where = state.get("stage", f".pt2 {kind}")
    if rc is None:
        say(f"FAILED [{name}] {where}: stopped at the time budget (see log)")
    elif rc < 0:
        say(f"FAILED [{name}] {where}: killed by {signal.Signals(-rc).name} (see log)")
    elif rc > 0:
        say(f"FAILED [{name}] {where}: worker exited with status {rc} (see log)")


def merge(entry: dict, state: dict) -> None:
    info = state.get("compile")
    if info:
        entry.update(compile_s=info["seconds"], bytes=info["bytes"], notes=info["notes"])
    if state.get("parity"):
        entry["parity"] = {int(b): v for b, v in state["parity"].items()}
    for batch, rows in state.get("timing", {}).items():
        entry["timing"].setdefault(int(batch), {}).update(rows)
    for line in state.get("failed", []):
        if line not in FAILED:
            FAILED.append(line)
    LOG.extend(line for line in state.get("log", []) if line not in LOG)


def phase_eager(names: list[str], results: dict, env: dict) -> None:
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


def phase_pt2(names: list[str], results: dict, env: dict, workdir: Path) -> None:
    """Compile the packages in GPU_CHECK_COMPILE_JOBS children at once, then load/verify/time one by one."""
    jobs = max(1, int(os.environ.get("GPU_CHECK_COMPILE_JOBS", "3")))
    for first in range(0, len(names), jobs):
        group = names[first : first + jobs]
        threads = max(2, (os.cpu_count() or 2) // len(group))
        for name in group:
            if left_s() < 60:
                say(f"  skipped {name} .pt2: time budget")
                continue
            spawn("compile", name, workdir, threads)
        for name in group:
            if f"compile {name}" in CHILDREN:
                finish("compile", name, workdir, results)
                save(results, env)
    for name in names:
        if "compile_s" not in results[name]:
            continue
        if left_s() < 20:
            say(f"  skipped {name} .pt2 load/verify/timing: time budget")
            continue
        spawn("run", name, workdir)
        finish("run", name, workdir, results)
        save(results, env)


def fmt(row: dict | None, key: str = "p50_ms") -> str:
    return "n/a" if not row else f"{row[key]:.3f}"


def speedup(base: dict | None, row: dict | None) -> str:
    return "n/a" if not base or not row else f"{base['p50_ms'] / row['p50_ms']:.2f}x"


def markdown(results: dict, env: dict) -> str:
    lines = [
        f"# GPU check: {env['gpu']}, torch {env['torch']}, CUDA {env['cuda']}",
        "",
        "p50 latency in ms (CUDA events, inputs on the GPU, float32 with TF32 off; tiny_transformer at seq "
        f"{SEQ}). The .pt2 has a dynamic batch; torch.compile is default mode, static shapes.",
        "",
        "| model | batch | eager | torch.compile | .pt2 | .pt2 + CUDA graph | .pt2 vs eager | graph vs eager |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, entry in results.items():
        for batch, t in entry["timing"].items():
            eager, pt, graph = t.get("eager"), t.get("pt2"), t.get("pt2_graph")
            lines.append(
                f"| {name} | {batch} | {fmt(eager)} | {fmt(t.get('compile'))} | {fmt(pt)} | {fmt(graph)} "
                f"| {speedup(eager, pt)} | {speedup(eager, graph)} |"
            )
    lines += [
        "",
        "| model | AOTI compile s | MiB | batch | max_abs | max_rel | ok | torch.compile first call ms |",
    ]
    lines.append("|---|---|---|---|---|---|---|---|")
    for name, entry in results.items():
        for batch in BATCHES:
            parity = (entry.get("parity") or {}).get(batch)
            cells = (
                [f"{parity['max_abs']:.2e}", f"{parity['max_rel']:.2e}", str(parity["ok"])]
                if parity
                else ["n/a"] * 3
            )
            size = f"{entry['bytes'] / 2**20:.1f}" if "bytes" in entry else "n/a"
            first = fmt(entry["timing"].get(batch, {}).get("compile"), "first_ms")
            lines.append(
                f"| {name} | {entry.get('compile_s', 'n/a')} | {size} | {batch} | {' | '.join(cells)} | {first} |"
            )
    lines += ["", f"total {time.perf_counter() - START:.0f} s; {env['cuda_home']}"]
    lines += ["", "Failures:" if FAILED else "No failures."] + [f"- {line}" for line in FAILED]
    return "\n".join(lines) + "\n"


def save(results: dict, env: dict) -> str:
    """Write gpu_check.md/.json/.log to $OUT (atomically, after every row); returns the markdown."""
    text = markdown(results, env)
    if OUT is not None:
        OUT.mkdir(parents=True, exist_ok=True)
        write_text(OUT / "gpu_check.md", text)
        payload = {"env": env, "results": results, "failed": FAILED}
        write_text(OUT / "gpu_check.json", json.dumps(payload, indent=1, default=str))
        write_text(OUT / "gpu_check.log", "\n".join(LOG) + "\n")
    return text


def empty_cache() -> None:
    if DEVICE == "cuda":
        torch.cuda.empty_cache()


def setup_precision() -> None:
    """Float32 parity and timing: TF32 off everywhere (Inductor reads these flags when it compiles)."""
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def environment() -> dict:
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


def main() -> int:
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
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))
    with tempfile.TemporaryDirectory(prefix="gpu_check_") as workdir:
        try:
            if "eager" in STEPS:
                phase_eager(names, results, env)
            if "compile" in STEPS:
                phase_compile(names, results, env)
            if "pt2" in STEPS:
                phase_pt2(names, results, env, Path(workdir))
        finally:
            for key, proc in list(CHILDREN.items()):  # only when the check itself is being stopped
                kill(proc)
                kind, name = key.split()
                state = Worker(name, Path(workdir)).state
                merge(results[name], state)
                say(
                    f"FAILED [{name}] {state.get('stage', f'.pt2 {kind}')}: stopped by the time limit (see log)"
                )
            print()
            print(save(results, env))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--pt2-worker"]:
        sys.exit(worker_main(*sys.argv[2:5]))
    sys.exit(main())
