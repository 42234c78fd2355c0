"""The .pt2 steps of the GPU check, run in a child process so that a native crash ends only the child.

The parent starts ``scripts/gpu_check.py --pt2-worker compile|run NAME WORKDIR`` (gpu_check_children.py);
this module does the work: ``compile`` exports and builds the package, ``run`` loads it, checks parity
against eager and times .pt2 and .pt2 + CUDA graph. Each stage is written to WORKDIR/NAME/state.json,
which the parent reads back whether the child finished, failed or was killed.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import numpy as np
from gpu_check_common import (
    BATCHES,
    DEVICE,
    FAILED,
    LOG,
    left_s,
    load_sample,
    make_inputs,
    say,
    setup_precision,
    step,
    torch_inputs,
)
from gpu_check_package import compile_package, export
from gpu_check_timing import bench

from deploy.atomic import write_text
from deploy.runtimes.cuda import session as pt2
from deploy.runtimes.cuda.eager import TorchSession


def compare(got: list[np.ndarray], want: list[np.ndarray]) -> dict:
    """Float32 parity: max |diff|, that relative to the output scale, ok at 1e-3 of scale (+1e-5)."""
    max_abs = max(float(np.abs(g.astype(np.float64) - w).max()) for g, w in zip(got, want, strict=True))
    scale = max(float(np.abs(w).max()) for w in want)
    return {"max_abs": max_abs, "max_rel": max_abs / max(scale, 1e-12), "ok": max_abs <= 1e-3 * scale + 1e-5}


def verify(name: str, eager: TorchSession, session: pt2.Pt2Session) -> dict:
    """Parity of the loaded package against eager at every batch, one printed line each."""
    out = {}
    for batch in BATCHES:
        inputs = make_inputs(name, batch, seed=100 + batch)
        out[batch] = compare(session.run(inputs), eager.run(inputs))
        v = out[batch]
        say(f"  parity {name} b{batch}: max_abs={v['max_abs']:.3g} max_rel={v['max_rel']:.3g} ok={v['ok']}")
    return out


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
    """The child's entry point (``gpu_check.py --pt2-worker KIND NAME WORKDIR``)."""
    setup_precision()
    worker = Worker(name, Path(workdir))
    try:
        worker.compile() if kind == "compile" else worker.run()
    finally:
        worker.save()
    return 0
