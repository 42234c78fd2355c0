"""GPU check in one call: samples -> model.cuda.pt2 (AOTInductor), verified on the GPU and timed.

For each sample (mobilenet_v2, resnet, tiny_transformer): torch.export (non-strict, dynamic batch),
deploy.runtimes.cuda.emit.emit_pt2 for cuda, parity against eager on the GPU at batch 1 and 32 in
float32 (TF32 off), then latency of eager CUDA, the .pt2, and CUDA-graph replay of the .pt2, and,
while the time budget lasts, torch.compile. Needs only torch. A failing step prints one line and
the rest goes on. Writes gpu_check.md / gpu_check.json / gpu_check.log to $OUT when it is set.
Run it through scripts/gpu_check.sh.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

import numpy as np
import torch

from deploy.devices.cuda import CudaDevice
from deploy.runtimes.cuda import session as pt2
from deploy.runtimes.cuda.eager import TorchSession
from deploy.runtimes.cuda.emit import emit_pt2

ROOT = Path(__file__).resolve().parent.parent
BUDGET_S = float(os.environ.get("GPU_CHECK_BUDGET_S", "420"))
BATCHES = (1, 32)
SEQ = 64
TIMING = {1: (10, 100), 32: (5, 30)}  # batch -> (warmup, runs)
OUT = Path(os.environ["OUT"]) if os.environ.get("OUT") else None
START = time.perf_counter()
LOG: list[str] = []
LAST_ERROR: list[BaseException | None] = [None]


def left_s() -> float:
    return BUDGET_S - (time.perf_counter() - START)


def say(line: str) -> None:
    print(line, flush=True)
    LOG.append(line)


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


def load_sample(name: str):
    spec = importlib.util.spec_from_file_location(f"sample_{name}", ROOT / "samples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def make_inputs(name: str, batch: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    if name == "tiny_transformer":
        return [rng.integers(0, 1000, size=(batch, SEQ)).astype(np.int64)]
    return [rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)]


def export(name: str, sample) -> torch.export.ExportedProgram:
    """Non-strict export on CPU with a dynamic batch (example batch 2: 1 would specialise)."""
    model = sample.model().eval()
    batch = torch.export.Dim("batch", min=1, max=64)
    example = tuple(torch.from_numpy(x) for x in make_inputs(name, 2, seed=0))
    if name == "tiny_transformer":
        seq = torch.export.Dim("seq", min=2, max=256)
        dynamic = ({0: batch, 1: seq},)
    else:
        dynamic = ({0: batch},)
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


def bench(device: CudaDevice, factory, name: str, batch: int, label: str, cuda_graph: bool = False) -> dict:
    warmup, runs = TIMING[batch]
    result = device.bench_session(
        factory,
        label=label,
        runs=runs,
        warmup=warmup,
        threads=None,
        inputs=make_inputs(name, batch, seed=7),
        cuda_graph=cuda_graph,
    )
    row = {
        "p50_ms": result.p50_ms,
        "p90_ms": result.p90_ms,
        "first_ms": result.first_ms,
        "notes": result.notes,
    }
    say(
        f"  {name} b{batch} {label}: p50 {result.p50_ms:.3f} ms, p90 {result.p90_ms:.3f} ms, first {result.first_ms:.1f} ms"
    )
    return row


def compile_package(name: str, program, workdir: Path) -> dict | None:
    """emit_pt2 for cuda; one retry without freezing if that fails and time allows."""
    out = workdir / name / "model.cuda.pt2"
    say(f"[{name}] compiling model.cuda.pt2 ({left_s():.0f} s of budget left)")
    configs = json.loads(os.environ.get("GPU_CHECK_CONFIGS", "{}")) or None
    info = step(f"{name} emit_pt2", emit_pt2, program, out, device="cuda", configs=configs)
    # A missing toolkit or a C++ build error would fail again; an Inductor lowering problem might not.
    error = str(LAST_ERROR[0]) if info is None else ""
    if info is None and left_s() > 120 and "CUDA" not in error and "error:" not in error:
        say(f"[{name}] retrying emit_pt2 with freezing off")
        info = step(
            f"{name} emit_pt2 (freezing off)",
            emit_pt2,
            program,
            out,
            device="cuda",
            configs={"freezing": False},
        )
    if info is not None:
        say(
            f"  compiled in {info['seconds']:.1f} s, {info['bytes'] / 2**20:.1f} MiB; {'; '.join(info['notes'])}"
        )
    return info


def check_model(name: str, device: CudaDevice, workdir: Path, results: dict) -> None:
    """Phase 1 for one sample: export, compile, verify, time eager / .pt2 / .pt2 + CUDA graph.

    Eager is timed even when the export or the compile fails.
    """
    entry = results.setdefault(name, {"timing": {}})
    sample = load_sample(name)
    program = step(f"{name} export", export, name, sample)
    info = compile_package(name, program, workdir) if program is not None else None
    eager = TorchSession(sample.model(), [torch.from_numpy(x) for x in make_inputs(name, 1, 0)])
    path = session = None
    if info is not None:
        entry.update(compile_s=info["seconds"], bytes=info["bytes"], notes=info["notes"])
        path = Path(info["path"])
        session = step(f"{name} load", pt2.load, path)
    if session is not None:
        entry["parity"] = step(f"{name} verify", verify, name, eager, session)
    for batch in BATCHES:
        timing = entry["timing"].setdefault(batch, {})
        timing["eager"] = step(f"{name} b{batch} eager", bench, device, lambda: eager, name, batch, "eager")
        if session is None:
            continue
        timing["pt2"] = step(
            f"{name} b{batch} pt2", bench, device, lambda: pt2.load(path), name, batch, ".pt2"
        )
        graph_factory = lambda: pt2.load(path, single_threaded=True)  # noqa: E731
        timing["pt2_graph"] = step(
            f"{name} b{batch} pt2+graph",
            bench,
            device,
            graph_factory,
            name,
            batch,
            ".pt2+graph",
            cuda_graph=True,
        )
    torch.cuda.empty_cache()


def check_compile(name: str, device: CudaDevice, results: dict) -> None:
    """Phase 2 for one sample: torch.compile (default mode, static shapes), timed at each batch."""
    sample = load_sample(name)
    for batch in BATCHES:
        if left_s() < 45:
            say(f"  skipped torch.compile {name} b{batch}: time budget")
            continue
        example = [torch.from_numpy(x) for x in make_inputs(name, batch, 0)]

        def factory(example=example):
            return TorchSession(sample.model(), example, compile=True, compile_options={"dynamic": False})

        timing = results.setdefault(name, {"timing": {}})["timing"].setdefault(batch, {})
        timing["compile"] = step(
            f"{name} b{batch} torch.compile", bench, device, factory, name, batch, "torch.compile"
        )
        torch._dynamo.reset()


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
        for batch, t in entry.get("timing", {}).items():
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
            first = fmt(entry.get("timing", {}).get(batch, {}).get("compile"), "first_ms")
            lines.append(
                f"| {name} | {entry.get('compile_s', 'n/a')} | {size} | {batch} | {' | '.join(cells)} | {first} |"
            )
    lines += ["", f"total {time.perf_counter() - START:.0f} s; {env['cuda_home']}"]
    return "\n".join(lines) + "\n"


def save(results: dict, env: dict) -> str:
    text = markdown(results, env)
    if OUT is not None:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "gpu_check.md").write_text(text)
        (OUT / "gpu_check.json").write_text(
            json.dumps({"env": env, "results": results}, indent=1, default=str)
        )
        (OUT / "gpu_check.log").write_text("\n".join(LOG) + "\n")
    return text


def environment() -> dict:
    from deploy.runtimes.cuda.toolkit import cxx_compiler, ensure_cuda_home

    cuda_home = step("CUDA toolkit", ensure_cuda_home) or "no CUDA headers found"
    return {
        "gpu": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "python": sys.version.split()[0],
        "cxx": cxx_compiler(),
        "cuda_home": cuda_home,
        "cpus": os.cpu_count(),
    }


def main() -> int:
    if not torch.cuda.is_available():
        print(
            "gpu_check: no CUDA GPU visible to PyTorch (torch.cuda.is_available() is False)", file=sys.stderr
        )
        return 2
    # Float32 parity and timing: TF32 off everywhere (Inductor reads these flags when it compiles).
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    env = environment()
    say(json.dumps(env))
    device = CudaDevice(0)
    results: dict = {}
    workdir = Path(tempfile.mkdtemp(prefix="gpu_check_"))
    names = [
        n for n in os.environ.get("GPU_CHECK_MODELS", "mobilenet_v2,resnet,tiny_transformer").split(",") if n
    ]
    try:
        for name in names:
            if left_s() < 60:
                say(f"[{name}] skipped: time budget")
                continue
            step(f"{name}", check_model, name, device, workdir, results)
            save(results, env)
        for name in names:
            step(f"{name} torch.compile", check_compile, name, device, results)
            save(results, env)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print()
    print(save(results, env))
    return 0


if __name__ == "__main__":
    sys.exit(main())
