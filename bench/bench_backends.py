"""CPU latency of one model on four backends, measured alternating in one process, written to docs/BENCHMARKS.md.

Backends: eager PyTorch, our ONNX in onnxruntime, our .tflite in ai-edge-litert, and litert-torch's
.tflite (converted in the side venv by bench/peer_convert.py; run here by the same ai-edge-litert
Interpreter as ours). Every iteration runs each backend once on the same inputs, in a rotating
order, so that drift on this shared machine hits all of them alike; warm-up is excluded. Also times
the ONNX -> .tflite lowering (deploy.runtimes.tflite.emit.emit_tflite) and counts the operators of
both .tflite files, which explains most latency differences.

    .venv/bin/python bench/bench_backends.py --iters 150 --threads 1
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_report import render_section, write_section  # noqa: E402
from tflite_ops import op_histogram, xnnpack_placement  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("mobilenet_v2", "resnet", "tiny_transformer")
BACKENDS = ("eager", "onnx", "tflite", "tflite-static", "litert-torch")


def export_ours(sample: Path, out_dir: Path) -> tuple[dict[str, Path], list[str]]:
    """Export ``sample`` with our tool to ONNX and .tflite; a target that fails is left out with a note."""
    import deploy

    notes: list[str] = []
    try:
        result = deploy.export(str(sample), targets=["onnx", "tflite"], out=out_dir)
    except Exception as error:  # noqa: BLE001 - e.g. a tflite lowering still being written
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        notes.append(f"export failed: {first}")
        try:
            result = deploy.export(str(sample), targets=["onnx"], out=out_dir)
        except Exception as onnx_error:  # noqa: BLE001
            notes.append(f"onnx export failed: {onnx_error}")
            return {}, notes
    paths = {}
    for target, artifact in result.artifacts.items():
        if artifact.path is not None and artifact.ok:
            paths[target] = Path(artifact.path)
        else:
            notes.append(f"our {target}: not built ({'; '.join(artifact.errors) or 'parity failed'})")
    return paths, notes


def export_static_tflite(sample: Path, out_dir: Path, notes: list[str]) -> Path | None:
    """Our .tflite with every dim fixed to the example inputs' (for a sample with dynamic shapes)."""
    import deploy

    try:
        artifact = deploy.export(str(sample), targets=["tflite"], out=out_dir, static=True).artifacts[
            "tflite"
        ]
    except Exception as error:  # noqa: BLE001 - the dynamic export is the one that counts
        notes.append(f"our static .tflite: export failed: {str(error).splitlines()[0]}")
        return None
    if artifact.path is None or not artifact.ok:
        notes.append(f"our static .tflite: not built ({'; '.join(artifact.errors) or 'parity failed'})")
        return None
    return Path(artifact.path)


def ensure_peers(models: list[str], peer_dir: Path, peer_python: Path, reconvert: bool) -> dict[str, dict]:
    """litert-torch's .tflite per model from ``peer_dir``, converting the missing ones in the side venv."""
    missing = [m for m in models if reconvert or not (peer_dir / f"{m}.tflite").is_file()]
    if missing and peer_python.is_file():
        command = [str(peer_python), str(ROOT / "bench" / "peer_convert.py")]
        command += [str(ROOT / "samples" / f"{m}.py") for m in missing] + ["--out", str(peer_dir)]
        print("converting with litert-torch:", shlex.join(command), flush=True)
        subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=False)
    peers = {}
    for model in models:
        meta = peer_dir / f"{model}.json"
        info = json.loads(meta.read_text()) if meta.is_file() else {}
        path = peer_dir / f"{model}.tflite"
        if path.is_file():
            info["path"] = str(path)
        elif not info.get("error"):
            info["error"] = f"no {path}; run: bash bench/setup_peers.sh"
        peers[model] = info
    return peers


def load_sessions(sample: Path, artifacts: dict[str, Path | None], threads: int, notes: list[str]) -> dict:
    """Backend label -> loaded Session, all with the same thread count; a backend that fails is noted."""
    import deploy.api
    from deploy.runtimes import load
    from deploy.runtimes.eager import EagerSession

    loaded = deploy.api.load(str(sample))
    sessions = {"eager": EagerSession(loaded.module, loaded.example_inputs, threads=threads)}
    for label in BACKENDS[1:]:
        path = artifacts.get(label)
        if path is None:
            continue
        try:
            sessions[label] = load(path, threads=threads)
        except Exception as error:  # noqa: BLE001 - measure the rest
            notes.append(f"{label}: cannot load {path}: {str(error).splitlines()[0]}")
    inputs = [t.numpy() for t in loaded.example_inputs]
    return {"sessions": sessions, "inputs": inputs}


def max_difference(sessions: dict, inputs: list[np.ndarray]) -> dict[str, float | None]:
    """Largest absolute difference of each backend's outputs from eager's on the bench inputs."""
    reference = sessions["eager"].run(inputs)
    differences = {}
    for label, session in sessions.items():
        outputs = session.run(inputs)
        same = len(outputs) == len(reference) and all(o.shape == r.shape for o, r in zip(outputs, reference))
        differences[label] = (
            max(float(np.max(np.abs(o.astype(np.float64) - r))) for o, r in zip(outputs, reference))
            if same
            else None
        )
    return differences


def time_alternating(sessions: dict, inputs: list[np.ndarray], iters: int, warmup: int) -> dict:
    """Milliseconds per run for each backend; each iteration runs every backend once, order rotating."""
    labels = list(sessions)
    for _ in range(warmup):
        for label in labels:
            sessions[label].run(inputs)
    samples: dict[str, list[float]] = {label: [] for label in labels}
    for index in range(iters):
        shift = index % len(labels)
        for label in labels[shift:] + labels[:shift]:
            start = time.perf_counter()
            sessions[label].run(inputs)
            samples[label].append((time.perf_counter() - start) * 1000.0)
    return {label: np.asarray(values) for label, values in samples.items()}


def summarize(samples: dict[str, np.ndarray]) -> dict[str, dict]:
    return {
        label: {
            "p50_ms": float(np.percentile(v, 50)),
            "p90_ms": float(np.percentile(v, 90)),
            "min_ms": float(v.min()),
            "runs": int(v.size),
        }
        for label, v in samples.items()
    }


PAIRS = (
    ("tflite", "litert-torch"),
    ("tflite-static", "litert-torch"),
    ("onnx", "eager"),
    ("tflite", "eager"),
)


def paired_ratios(samples: dict[str, np.ndarray]) -> dict[str, float]:
    """Median over iterations of a/b, both timed in the same iteration: robust to load that comes and goes."""
    return {
        f"{a}/{b}": float(np.median(samples[a] / samples[b]))
        for a, b in PAIRS
        if a in samples and b in samples
    }


def lowering_seconds(onnx_path: Path, runs: int) -> list[float]:
    """Wall seconds of emit_tflite(ONNX file -> .tflite) per run, after one untimed warm-up run."""
    from deploy.runtimes.tflite.emit import emit_tflite

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "model.tflite"
        emit_tflite(onnx_path, target)
        for _ in range(runs):
            start = time.perf_counter()
            emit_tflite(onnx_path, target)
            times.append(time.perf_counter() - start)
    return times


def environment(peers: dict[str, dict]) -> dict:
    from deploy.devices.host import cpu_model, usable_cores

    def version(name: str) -> str:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    peer_versions = {info.get("litert_torch") for info in peers.values() if info.get("litert_torch")}
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu_model(),
        "cores": usable_cores(),
        "python": sys.version.split()[0],
        "torch": version("torch"),
        "onnxruntime": version("onnxruntime"),
        "ai-edge-litert": version("ai-edge-litert"),
        "litert-torch": ", ".join(sorted(peer_versions)) or "not installed",
    }


def _has_dynamic_shapes(sample: Path) -> bool:
    import deploy.api

    return deploy.api.load(str(sample)).dynamic_shapes is not None


def bench_model(model: str, args: argparse.Namespace, peer: dict) -> dict:
    """Export, load, check and time one model at every thread count asked."""
    sample = ROOT / "samples" / f"{model}.py"
    print(f"[{model}] exporting", flush=True)
    artifacts, notes = export_ours(sample, args.work_dir / model)
    if "tflite" in artifacts and _has_dynamic_shapes(sample):
        static = export_static_tflite(sample, args.work_dir / f"{model}_static", notes)
        if static is not None:
            artifacts["tflite-static"] = static
    if peer.get("path"):
        artifacts["litert-torch"] = Path(peer["path"])
    else:
        notes.append(f"litert-torch: {peer.get('error', 'no .tflite')}")
    if peer.get("dynamic_error"):
        notes.append(f"litert-torch kept static shapes (dynamic conversion failed: {peer['dynamic_error']})")
    record = {"model": model, "notes": notes, "runs": {}, "ops": {}, "max_abs_vs_eager": {}}
    for label in ("tflite", "tflite-static", "litert-torch"):
        if label in artifacts:
            record["ops"][label] = op_histogram(artifacts[label])
            record["ops"][label]["xnnpack"] = xnnpack_placement(artifacts[label], threads=args.threads[0])
    for threads in args.threads:
        state = load_sessions(sample, artifacts, threads, notes)
        sessions, inputs = state["sessions"], state["inputs"]
        record["max_abs_vs_eager"] = max_difference(sessions, inputs)
        print(f"[{model}] timing {list(sessions)} x {args.iters} at {threads} thread(s)", flush=True)
        samples = time_alternating(sessions, inputs, args.iters, args.warmup)
        record["runs"][str(threads)] = summarize(samples)
        record.setdefault("paired", {})[str(threads)] = paired_ratios(samples)
        del sessions
    if "onnx" in artifacts and args.lowering_runs and "tflite" in artifacts:
        record["lowering_s"] = lowering_seconds(artifacts["onnx"], args.lowering_runs)
    record["peer_convert_s"] = peer.get("convert_s")
    return record


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=MODELS)
    parser.add_argument("--iters", type=int, default=150, help="alternating iterations per model")
    parser.add_argument("--warmup", type=int, default=10, help="untimed iterations before timing")
    parser.add_argument("--threads", type=int, nargs="+", default=[1], help="thread counts, e.g. 1 2")
    parser.add_argument("--lowering-runs", type=int, default=5, help="timed emit_tflite runs per model")
    parser.add_argument("--work-dir", type=Path, default=ROOT / "deploy_out" / "bench")
    parser.add_argument("--peer-dir", type=Path, default=ROOT / ".peers" / "out")
    parser.add_argument("--peer-python", type=Path, default=ROOT / ".peers" / "venv" / "bin" / "python")
    parser.add_argument("--reconvert-peers", action="store_true", help="convert with litert-torch again")
    parser.add_argument("--doc", type=Path, default=ROOT / "docs" / "BENCHMARKS.md")
    parser.add_argument("--no-doc", action="store_true", help="print only; leave docs/BENCHMARKS.md alone")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    command = "python bench/bench_backends.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    peers = ensure_peers(args.models, args.peer_dir, args.peer_python, args.reconvert_peers)
    started, load_before = time.perf_counter(), os.getloadavg()[0]
    records = [bench_model(model, args, peers[model]) for model in args.models]
    results = {
        "command": command.strip(),
        "environment": environment(peers),
        "iters": args.iters,
        "warmup": args.warmup,
        "threads": args.threads,
        "models": records,
        "bench_s": round(time.perf_counter() - started, 1),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    args.work_dir.mkdir(parents=True, exist_ok=True)
    (args.work_dir / "bench_backends.json").write_text(json.dumps(results, indent=2) + "\n")
    section = render_section(results)
    print(section)
    if not args.no_doc:
        write_section(args.doc, section)
        print(f"wrote {args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
